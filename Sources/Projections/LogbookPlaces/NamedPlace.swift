// SPDX-License-Identifier: MIT
public import LogbookCore

/// A place a person named: a circle ("Home", "Customer Müller AG"). Where named places
/// overlap, the one whose centre is nearest names a position
/// (``LogbookCore/GeoCircle/nearest(containingLatitude:longitude:in:)``).
public typealias NamedPlace = GeoCircle
