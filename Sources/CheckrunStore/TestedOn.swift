/// Where a check was tested: a device and the OS version it ran.
///
/// Reports choose the latest result per check and *place*, not per device label alone: two
/// testers' iPhone 15s on iOS 17.5 and 18.2 (or one phone before and after an update) are two
/// places, and a pass answered later on one must not stand in for a failure on the other.
/// Within one place the latest answer counts, as a retest of the same thing.
package enum TestedOn {
    /// A check on a device and OS version: the key every latest result is the latest of.
    package struct Place: Hashable, Sendable {
        package var check: String
        package var device: String
        package var osVersion: String

        package init(check: String, device: String, osVersion: String) {
            self.check = check
            self.device = device
            self.osVersion = osVersion
        }
    }

    /// "iPhone 15, OS 18.2", "iPhone 15" with no OS version, "unnamed device, OS 18.2" with no
    /// device, and "" when neither is known (each format names that its own way). Reports list
    /// places joined by semicolons, so the comma stays inside one.
    package static func name(device: String, osVersion: String) -> String {
        guard !osVersion.isEmpty else { return device }
        return (device.isEmpty ? "unnamed device" : device) + ", OS \(osVersion)"
    }
}
