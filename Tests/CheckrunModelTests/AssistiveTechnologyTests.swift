import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// Reports group by assistive technology, not by the profile's exact words.
@Suite struct AssistiveTechnologyTests {
    @Test(arguments: [
        ("Switch Control", "Switch Control"), ("Switch Control, item scanning", "Switch Control"),
        ("Switch Control, default scanning speed", "Switch Control"), ("Voice Control, \"Show numbers\"", "Voice Control"),
        ("touch, one hand, Reachability on", "touch"), ("Larger Text AX3", "Larger Text"), ("VoiceOver", "VoiceOver"),
        ("Accessibility Inspector", "Accessibility Inspector"), ("Xcode preview, .assistiveAccess trait", "Assistive Access"), ("unspecified", "other"),
    ])
    func theProfileNamesTheTechnology(profile: String, technology: String) {
        #expect(AssistiveTechnology.derived(from: profile).rawValue == technology)
    }

    @Test func everyCuratedCheckNamesItsTechnologyAndLintChecksIt() throws {
        let library = try ProtocolLibrary.load(directory: Repository.path("protocols"))
        #expect(library.problems.isEmpty)
        #expect(library.allChecks.allSatisfy { $0.check.assistiveTechnology != nil })
        let text = try Repository.text("protocols/tiny-target.json").replacingOccurrences(of: "\"assistiveTechnology\": \"touch\"", with: "\"assistiveTechnology\": \"Touch\"")
        let problems = ProtocolLinter().lint(bytes: Array(text.utf8), fileName: "tiny-target.json").problems
        #expect(problems.contains { $0.description.contains("/assistiveTechnology") && $0.description.contains("\"touch\"") }, "\(problems)")
    }

    @Test func importDerivesIt() throws {
        let page = try Repository.text("Tests/Fixtures/seeds/001_505cf892b4e0d64b.txt")
        let imported = try CatalogImporter().importPage(text: page, fileName: "001.txt")
        #expect(imported.document.checks.map { $0.assistiveTechnology?.rawValue } == ["Accessibility Inspector", "touch", "Voice Control"])
    }
}
