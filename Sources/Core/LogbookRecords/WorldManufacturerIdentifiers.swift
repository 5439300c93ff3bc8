// SPDX-License-Identifier: MIT
/// Manufacturers by world manufacturer identifier (the first characters of a VIN), for the
/// vehicle an unknown VIN adds. A short table of common passenger-car WMIs, written for this
/// project; the longest matching prefix wins, and an unknown WMI gives nil (the VIN is still
/// recorded, only the make stays empty).
public enum WorldManufacturerIdentifiers {
    /// The manufacturer of the car with this VIN, or nil.
    public static func manufacturer(ofVIN vin: String) -> String? {
        let three = String(vin.prefix(3)), two = String(vin.prefix(2))
        return table.first { $0.prefix == three }?.name ?? table.first { $0.prefix == two }?.name
    }

    private static let table: [(prefix: String, name: String)] = [
        // Germany
        ("WVW", "Volkswagen"), ("WV1", "Volkswagen Commercial Vehicles"), ("WV2", "Volkswagen Commercial Vehicles"),
        ("WAU", "Audi"), ("WUA", "Audi Sport"), ("WBA", "BMW"), ("WBS", "BMW M"), ("WBY", "BMW i"),
        ("WMW", "MINI"), ("WDB", "Mercedes-Benz"), ("WDD", "Mercedes-Benz"), ("W1K", "Mercedes-Benz"),
        ("W1N", "Mercedes-Benz"), ("WDC", "Mercedes-Benz"), ("WMX", "Mercedes-AMG"), ("WP0", "Porsche"),
        ("WP1", "Porsche"), ("W0L", "Opel"), ("W0V", "Opel"), ("WF0", "Ford Germany"), ("WME", "smart"),
        // France, Spain
        ("VF1", "Renault"), ("VF3", "Peugeot"), ("VF7", "Citroën"), ("VR3", "Peugeot"), ("VR7", "Citroën"),
        ("VR1", "DS Automobiles"), ("UU1", "Dacia"), ("VSS", "SEAT"), ("VSK", "Nissan Spain"), ("VS6", "Ford Spain"),
        // Italy
        ("ZFA", "Fiat"), ("ZAR", "Alfa Romeo"), ("ZLA", "Lancia"), ("ZFF", "Ferrari"), ("ZHW", "Lamborghini"),
        ("ZAM", "Maserati"), ("ZCF", "Iveco"),
        // United Kingdom
        ("SAJ", "Jaguar"), ("SAL", "Land Rover"), ("SAR", "Rover"), ("SCC", "Lotus"), ("SCF", "Aston Martin"),
        ("SCB", "Bentley"), ("SCA", "Rolls-Royce"), ("SB1", "Toyota (UK)"), ("SJN", "Nissan (UK)"), ("SHH", "Honda (UK)"),
        // Central and northern Europe
        ("TMB", "Škoda"), ("TMA", "Hyundai (Czechia)"), ("TRU", "Audi (Hungary)"), ("TSM", "Suzuki (Hungary)"),
        ("YV1", "Volvo"), ("YV4", "Volvo"), ("YS3", "Saab"), ("XTA", "Lada"),
        // Japan
        ("JT", "Toyota"), ("JTH", "Lexus"), ("JHM", "Honda"), ("JHL", "Honda"), ("JH4", "Acura"), ("JN", "Nissan"),
        ("JN1", "Nissan"), ("JM", "Mazda"), ("JF", "Subaru"), ("JS", "Suzuki"), ("JA", "Mitsubishi"),
        ("JMB", "Mitsubishi"), ("JD", "Daihatsu"),
        // Korea, China, India
        ("KMH", "Hyundai"), ("KNA", "Kia"), ("KND", "Kia"), ("KNM", "Renault Samsung"), ("KL", "GM Korea"),
        ("LSV", "SAIC Volkswagen"), ("LFV", "FAW-Volkswagen"), ("LRW", "Tesla (Shanghai)"), ("LB3", "Geely"),
        ("LGX", "BYD"), ("LC0", "BYD"), ("LVS", "Ford (China)"), ("MA3", "Suzuki (India)"), ("MAT", "Tata Motors"),
        ("MAL", "Hyundai (India)"), ("MBH", "Suzuki (India)"),
        // North America
        ("1FA", "Ford"), ("1FT", "Ford"), ("1FM", "Ford"), ("1LN", "Lincoln"), ("1G1", "Chevrolet"),
        ("1GC", "Chevrolet"), ("1GN", "Chevrolet"), ("1G6", "Cadillac"), ("1GT", "GMC"), ("1C3", "Chrysler"),
        ("1C4", "Chrysler"), ("1C6", "Ram"), ("1B3", "Dodge"), ("2C3", "Chrysler (Canada)"), ("1J4", "Jeep"),
        ("1HG", "Honda (USA)"), ("1N4", "Nissan (USA)"), ("1N6", "Nissan (USA)"), ("4T1", "Toyota (USA)"),
        ("4T3", "Toyota (USA)"), ("5TD", "Toyota (USA)"), ("2T1", "Toyota (Canada)"), ("5YJ", "Tesla"),
        ("7SA", "Tesla"), ("2HG", "Honda (Canada)"), ("5NP", "Hyundai (USA)"), ("5XY", "Kia (USA)"),
        ("4S3", "Subaru (USA)"), ("4S4", "Subaru (USA)"), ("1VW", "Volkswagen (USA)"), ("3VW", "Volkswagen (Mexico)"),
        ("4US", "BMW (USA)"), ("5UX", "BMW (USA)"), ("4JG", "Mercedes-Benz (USA)"), ("3FA", "Ford (Mexico)"),
        ("3N1", "Nissan (Mexico)"), ("3MZ", "Mazda (Mexico)"),
    ]
}
