// SPDX-License-Identifier: MIT
/// Short descriptions of common generic powertrain codes, in the words of SAE J2012's generic
/// definitions (written for this project, shortened; not copied from any package).
///
/// Covered: P0100–P0199 (air, fuel and oxygen sensors), P0300–P0312 (misfire), P0335/P0340,
/// P0400–P0404, P0420–P0434 (catalysts), P0440–P0457 (evaporative system), the common P05xx
/// (speed, idle, oil pressure, system voltage) and P07xx (transmission) codes. Everything else
/// shows as the bare code. A function rather than a dictionary: nothing is built in memory.
public enum TroubleCodeDescriptions {
    /// The description of a generic powertrain code, or nil.
    public static func description(of code: TroubleCode) -> String? {
        guard code.system == "P", code.raw >> 12 & 0x3 == 0 else { return nil }
        // The last three digits read as a decimal number (P0133 → 133); codes with a hex
        // letter there are not in the table.
        let digits = [Int(code.raw >> 8 & 0xF), Int(code.raw >> 4 & 0xF), Int(code.raw & 0xF)]
        guard digits.allSatisfy({ $0 <= 9 }) else { return nil }
        let n = digits[0] * 100 + digits[1] * 10 + digits[2]
        switch n {
        case 100...199: return sensors(n)
        case 300...399: return ignition(n)
        case 400...499: return emissions(n)
        case 500...599: return speedIdleVoltage(n)
        case 700...799: return transmission(n)
        default: return nil
        }
    }

    /// The five codes of a sensor circuit: malfunction, range/performance, low, high, intermittent.
    private static func circuit(_ name: String, _ step: Int) -> String? {
        switch step {
        case 0: "\(name) Circuit Malfunction"
        case 1: "\(name) Circuit Range/Performance"
        case 2: "\(name) Circuit Low Input"
        case 3: "\(name) Circuit High Input"
        case 4: "\(name) Circuit Intermittent"
        default: nil
        }
    }

    /// The six codes of an oxygen sensor.
    private static func oxygen(bank: Int, sensor: Int, _ step: Int) -> String? {
        let which = "(Bank \(bank) Sensor \(sensor))"
        switch step {
        case 0: return "O2 Sensor Circuit Malfunction \(which)"
        case 1: return "O2 Sensor Circuit Low Voltage \(which)"
        case 2: return "O2 Sensor Circuit High Voltage \(which)"
        case 3: return "O2 Sensor Circuit Slow Response \(which)"
        case 4: return "O2 Sensor Circuit No Activity Detected \(which)"
        case 5: return "O2 Sensor Heater Circuit Malfunction \(which)"
        default: return nil
        }
    }

    private static func sensors(_ n: Int) -> String? {
        switch n {
        case 100...104: circuit("Mass or Volume Air Flow", n - 100)
        case 105...109: circuit("Manifold Absolute Pressure/Barometric Pressure", n - 105)
        case 110...114: circuit("Intake Air Temperature", n - 110)
        case 115...119: circuit("Engine Coolant Temperature", n - 115)
        case 120...124: circuit("Throttle/Pedal Position Sensor/Switch A", n - 120)
        case 125: "Insufficient Coolant Temperature for Closed Loop Fuel Control"
        case 126: "Insufficient Coolant Temperature for Stable Operation"
        case 127: "Intake Air Temperature Too High"
        case 128: "Coolant Thermostat (Coolant Temperature Below Regulating Temperature)"
        case 129: "Barometric Pressure Too Low"
        case 130...135: oxygen(bank: 1, sensor: 1, n - 130)
        case 136...141: oxygen(bank: 1, sensor: 2, n - 136)
        case 142...147: oxygen(bank: 1, sensor: 3, n - 142)
        case 148: "Fuel Delivery Error"
        case 149: "Fuel Timing Error"
        case 150...155: oxygen(bank: 2, sensor: 1, n - 150)
        case 156...161: oxygen(bank: 2, sensor: 2, n - 156)
        case 162...167: oxygen(bank: 2, sensor: 3, n - 162)
        case 168: "Fuel Temperature Too High"
        case 169: "Incorrect Fuel Composition"
        case 170: "Fuel Trim Malfunction (Bank 1)"
        case 171: "System Too Lean (Bank 1)"
        case 172: "System Too Rich (Bank 1)"
        case 173: "Fuel Trim Malfunction (Bank 2)"
        case 174: "System Too Lean (Bank 2)"
        case 175: "System Too Rich (Bank 2)"
        case 176...179: circuit("Fuel Composition Sensor", n - 176)
        case 180...184: circuit("Fuel Temperature Sensor A", n - 180)
        case 185...189: circuit("Fuel Temperature Sensor B", n - 185)
        case 190...194: circuit("Fuel Rail Pressure Sensor", n - 190)
        case 195...199: circuit("Engine Oil Temperature Sensor", n - 195)
        default: nil
        }
    }

    private static func ignition(_ n: Int) -> String? {
        switch n {
        case 300: "Random/Multiple Cylinder Misfire Detected"
        case 301...309: "Cylinder \(n - 300) Misfire Detected"
        case 310...312: "Cylinder \(n - 310 + 10) Misfire Detected"
        case 335...339: circuit("Crankshaft Position Sensor A", n - 335)
        case 340...344: circuit("Camshaft Position Sensor", n - 340)
        default: nil
        }
    }

    private static func emissions(_ n: Int) -> String? {
        switch n {
        case 400: "Exhaust Gas Recirculation Flow Malfunction"
        case 401: "Exhaust Gas Recirculation Flow Insufficient Detected"
        case 402: "Exhaust Gas Recirculation Flow Excessive Detected"
        case 403: "Exhaust Gas Recirculation Circuit Malfunction"
        case 404: "Exhaust Gas Recirculation Circuit Range/Performance"
        case 420: "Catalyst System Efficiency Below Threshold (Bank 1)"
        case 421: "Warm Up Catalyst Efficiency Below Threshold (Bank 1)"
        case 422: "Main Catalyst Efficiency Below Threshold (Bank 1)"
        case 430: "Catalyst System Efficiency Below Threshold (Bank 2)"
        case 431: "Warm Up Catalyst Efficiency Below Threshold (Bank 2)"
        case 432: "Main Catalyst Efficiency Below Threshold (Bank 2)"
        case 440: "Evaporative Emission Control System Malfunction"
        case 441: "Evaporative Emission Control System Incorrect Purge Flow"
        case 442: "Evaporative Emission Control System Leak Detected (Small Leak)"
        case 443: "Evaporative Emission Control System Purge Control Valve Circuit Malfunction"
        case 444: "Evaporative Emission Control System Purge Control Valve Circuit Open"
        case 445: "Evaporative Emission Control System Purge Control Valve Circuit Shorted"
        case 446: "Evaporative Emission Control System Vent Control Circuit Malfunction"
        case 447: "Evaporative Emission Control System Vent Control Circuit Open"
        case 448: "Evaporative Emission Control System Vent Control Circuit Shorted"
        case 449: "Evaporative Emission Control System Vent Valve/Solenoid Circuit Malfunction"
        case 450...454: circuit("Evaporative Emission Control System Pressure Sensor", n - 450)
        case 455: "Evaporative Emission Control System Leak Detected (Gross Leak)"
        case 456: "Evaporative Emission Control System Leak Detected (Very Small Leak)"
        case 457: "Evaporative Emission Control System Leak Detected (Fuel Cap Loose/Off)"
        default: nil
        }
    }

    private static func speedIdleVoltage(_ n: Int) -> String? {
        switch n {
        case 500: "Vehicle Speed Sensor Malfunction"
        case 501: "Vehicle Speed Sensor Range/Performance"
        case 502: "Vehicle Speed Sensor Circuit Low Input"
        case 503: "Vehicle Speed Sensor Intermittent/Erratic/High"
        case 505: "Idle Control System Malfunction"
        case 506: "Idle Control System RPM Lower Than Expected"
        case 507: "Idle Control System RPM Higher Than Expected"
        case 510: "Closed Throttle Position Switch Malfunction"
        case 520: "Engine Oil Pressure Sensor/Switch Circuit Malfunction"
        case 521: "Engine Oil Pressure Sensor/Switch Circuit Range/Performance"
        case 522: "Engine Oil Pressure Sensor/Switch Circuit Low Voltage"
        case 523: "Engine Oil Pressure Sensor/Switch Circuit High Voltage"
        case 530: "A/C Refrigerant Pressure Sensor Circuit Malfunction"
        case 550: "Power Steering Pressure Sensor Circuit Malfunction"
        case 560: "System Voltage Malfunction"
        case 561: "System Voltage Unstable"
        case 562: "System Voltage Low"
        case 563: "System Voltage High"
        case 565: "Cruise Control On Signal Malfunction"
        case 571: "Cruise Control/Brake Switch A Circuit Malfunction"
        default: nil
        }
    }

    private static func transmission(_ n: Int) -> String? {
        switch n {
        case 700: "Transmission Control System Malfunction"
        case 701: "Transmission Control System Range/Performance"
        case 702: "Transmission Control System Electrical"
        case 703: "Torque Converter/Brake Switch B Circuit Malfunction"
        case 704: "Clutch Switch Input Circuit Malfunction"
        case 705: "Transmission Range Sensor Circuit Malfunction (PRNDL Input)"
        case 706...709: circuit("Transmission Range Sensor", n - 705)
        case 710...714: circuit("Transmission Fluid Temperature Sensor", n - 710)
        case 715: "Input/Turbine Speed Sensor Circuit Malfunction"
        case 716: "Input/Turbine Speed Sensor Circuit Range/Performance"
        case 717: "Input/Turbine Speed Sensor Circuit No Signal"
        case 720: "Output Speed Sensor Circuit Malfunction"
        case 721: "Output Speed Sensor Circuit Range/Performance"
        case 722: "Output Speed Sensor Circuit No Signal"
        case 725: "Engine Speed Input Circuit Malfunction"
        case 730: "Incorrect Gear Ratio"
        case 731...735: "Gear \(n - 730) Incorrect Ratio"
        case 740: "Torque Converter Clutch Circuit Malfunction"
        case 741: "Torque Converter Clutch Circuit Performance or Stuck Off"
        case 742: "Torque Converter Clutch Circuit Stuck On"
        case 743: "Torque Converter Clutch Circuit Electrical"
        case 750...753, 755...758, 760...763, 765...768: solenoid(n)
        default: nil
        }
    }

    /// Shift solenoids A–D: malfunction, performance or stuck off, stuck on, electrical.
    private static func solenoid(_ n: Int) -> String? {
        let letter = ["A", "B", "C", "D"][(n - 750) / 5]
        let what = ["Malfunction", "Performance or Stuck Off", "Stuck On", "Electrical"][(n - 750) % 5]
        return "Shift Solenoid \(letter) \(what)"
    }
}
