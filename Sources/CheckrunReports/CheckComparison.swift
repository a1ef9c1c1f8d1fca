import CheckrunStore

/// One check on one device and OS version across the compared builds.
package struct CheckComparison: Sendable {
    package var check: String
    /// Builds are compared per check, device and OS version (see `TestedOn`): a median of an
    /// iPhone's 7 and an iPad's 10 is neither device's figure, and a pass on one OS version is
    /// no verdict on another.
    package var device: String = ""
    package var osVersion: String = ""

    /// Where it was tested, as reports name it: "iPhone 15, OS 18.2".
    package var testedOn: String { TestedOn.name(device: device, osVersion: osVersion) }

    /// "tiny-target/touch-one-hand on iPhone 15", as lists and tables name it.
    package var label: String {
        check + " on " + (testedOn.isEmpty ? "an unnamed device" : testedOn)
    }
    /// Figures per scope, nil where the check has no result in that build.
    package var builds: [BuildFigures?]
    package var changes: [BuildChange]
    /// The check is no longer in the protocol folder.
    package var removed: Bool
}
