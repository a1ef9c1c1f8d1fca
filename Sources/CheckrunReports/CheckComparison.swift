/// One check on one device and OS version across the compared builds.
package struct CheckComparison: Sendable {
    package var check: String
    /// Builds are compared per check and device: a median of an iPhone's 7 and an iPad's 10
    /// is neither device's figure. (A build's verdict on the device is its worst across the OS
    /// versions it was tested on there: see `DeviceFigures`.)
    package var device: String = ""

    /// "tiny-target/touch-one-hand on iPhone 15", as lists and tables name it.
    package var label: String {
        check + " on " + (device.isEmpty ? "an unnamed device" : device)
    }
    /// Figures per scope, nil where the check has no result in that build.
    package var builds: [BuildFigures?]
    package var changes: [BuildChange]
    /// The check is no longer in the protocol folder.
    package var removed: Bool
}
