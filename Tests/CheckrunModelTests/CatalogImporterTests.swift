import CheckrunModel
import CheckrunTestSupport
import Testing

@Suite struct CatalogImporterTests {
    let importer = CatalogImporter()

    func page(_ name: String) throws -> String {
        try Repository.text("Tests/Fixtures/seeds/\(name)")
    }

    func importPage(_ name: String) throws -> CatalogImport {
        try importer.importPage(text: try page(name), fileName: name)
    }

    /// The blocks as the pages write them, copied by hand from the page text.
    static let catalogBlocks: [(file: String, id: String, title: String, wcag: [String], checks: [(String, String, [String])])] = [
        ("001_505cf892b4e0d64b.txt", "tiny-target", "Tiny Target", ["2.5.8", "2.5.5", "4.1.2"], [
            ("Accessibility Inspector", "inspect every icon button on the screen", ["each frame is at least 44 × 44 pt", "the audit reports no hit region issues"]),
            ("touch, one hand", "close the sheet 10 times in a row", ["10 out of 10 hits, Delete never triggered"]),
            ("Voice Control, \"Show numbers\"", "read the numbers on the toolbar", ["numbers don't overlap"]),
        ]),
        ("003_57918516d2719cbd.txt", "system-gesture-safe-zone", "System Gesture Safe Zone", ["2.5.1", "2.5.7", "2.5.8"], [
            ("touch, one hand, Reachability on", "choose a day 3 days ahead", ["no Reachability, no app switch, no Home"]),
            ("VoiceOver", "choose the next day", ["the selected day says \"Selected\"", "Next day is reachable, no drag needed"]),
            ("Larger Text AX3", "use the bottom controls", ["controls stay above the Home indicator, text isn't clipped"]),
        ]),
        ("004_2959898c3ab0ac2f.txt", "over-grouped-control", "Over Grouped Control", ["2.1.1", "2.4.3", "4.1.2"], [
            ("VoiceOver", "change the quantity of jasmine tea to 3, then remove it", ["the summary is one stop", "the stepper is the next stop, swipe up increases the quantity", "Remove names the item", "the Actions rotor isn't needed"]),
            ("Switch Control", "change the quantity", ["the stepper is a scan target", "Remove is a scan target"]),
        ]),
    ]

    @Test func everyCatalogEntryImportsWordForWord() throws {
        for entry in Self.catalogBlocks {
            let result = try importPage(entry.file)
            let document = result.document
            #expect(document.id == entry.id)
            #expect(document.title == entry.title)
            #expect(document.status == .ready)
            #expect(document.source == entry.file)
            #expect(document.wcag == entry.wcag, "only numbered criteria after WCAG mapping, not the related-entry lists")
            #expect(document.checks.map(\.profile) == entry.checks.map(\.0))
            #expect(document.checks.map(\.task) == entry.checks.map(\.1))
            #expect(document.checks.map { $0.expected.map(\.text) } == entry.checks.map(\.2))
            #expect(result.warnings.isEmpty)
            let lint = ProtocolLinter().lint(bytes: Array(document.fileText.utf8), fileName: "\(document.id).json")
            #expect(lint.problems.isEmpty, "\(lint.problems)")
        }
    }

    @Test func theChapterSentencesBecomeDraftChecksForReview() throws {
        let result = try importPage("000_8e018cc43fb1914c.txt")
        let document = result.document
        #expect(document.id == "motor-accessibility")
        #expect(document.status == .draft)
        #expect(document.checks.map(\.id) == ["decision-1", "decision-2", "decision-3", "decision-4", "decision-5"])
        #expect(document.checks.map(\.profile) == ["Accessibility Inspector", "Switch Control", "Switch Control", "Switch Control", "unspecified"])
        #expect(document.checks[2].task == "count the stops from the top of the screen to Pay with Switch Control item scanning. Write the number in the ticket. If it grows after a change, find out why.")
        #expect(document.checks.allSatisfy { $0.review != nil && $0.expected.isEmpty })
        #expect(result.warnings.count == 5)
        #expect(result.warnings[1].description.contains("000_8e018cc43fb1914c.txt:53: warning:"))
        #expect(result.warnings[1].message.contains("names Switch Control, Voice Control"))
        #expect(ProtocolLinter().lint(bytes: Array(document.fileText.utf8), fileName: "motor-accessibility.json").problems.isEmpty)
    }

    @Test func theAssistiveAccessPageIsRefusedByName() throws {
        #expect(throws: ImportMessage.self) { try importPage("002_a83402323fac066f.txt") }
        do { _ = try importPage("002_a83402323fac066f.txt") } catch {
            #expect((error as? ImportMessage)?.description.hasPrefix("002_a83402323fac066f.txt: no check found") == true)
        }
    }

    @Test func importingTwiceGivesTheSameIds() throws {
        let first = try importPage("001_505cf892b4e0d64b.txt").document
        let second = try importPage("001_505cf892b4e0d64b.txt").document
        #expect(first.fileText == second.fileText)
        #expect(first.checks.map(\.id) == ["accessibility-inspector", "touch-one-hand", "voice-control-show-numbers"])
    }

    /// The curated protocols keep the catalog's words: each source Expected line is a run of
    /// consecutive outcomes that, joined with ", ", give the line back.
    @Test func curatedProtocolsKeepEveryCatalogLine() throws {
        let library = try ProtocolLibrary.load(directory: Repository.path("protocols"))
        for entry in Self.catalogBlocks {
            let curated = try #require(library.document(id: entry.id))
            #expect(curated.wcag == entry.wcag)
            #expect(curated.checks.map(\.profile) == entry.checks.map(\.0))
            #expect(curated.checks.map(\.task) == entry.checks.map(\.1))
            for (check, source) in zip(curated.checks, entry.checks) {
                var outcomes = check.expected.map(\.text)[...]
                for line in source.2 {
                    var joined = ""
                    while joined.count < line.count, let next = outcomes.first {
                        joined += (joined.isEmpty ? "" : ", ") + next
                        outcomes = outcomes.dropFirst()
                    }
                    #expect(joined == line, "\(entry.id)/\(check.id)")
                }
                #expect(outcomes.isEmpty, "\(entry.id)/\(check.id) has outcomes the page does not")
            }
        }
    }

    @Test func everySeedPageHasACuratedProtocol() throws {
        let library = try ProtocolLibrary.load(directory: Repository.path("protocols"))
        let index = try Repository.text("Tests/Fixtures/seeds/INDEX.md")
        let pages = index.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| 0") else { return nil }
            return line.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(pages.count == 5)
        #expect(Set(library.documents.map(\.source)) == Set(pages))
        let motor = try #require(library.document(id: "motor-accessibility"))
        #expect(motor.checks.first { $0.counters.contains { $0.id == "stops" } } != nil, "Decision 3 counts stops")
        #expect(motor.checks.first { $0.timeLimit == 60 } != nil, "Decision 4 times checkout against the 60-second payment timeout")
    }

    // MARK: - The forms pages come in

    @Test func readsMarkdownWithHeadingsBoldLabelsAndListMarkers() throws {
        let markdown = """
        # Tiny Target

        **Status:** ready

        ## Check

        - **Profile:** touch, one hand
        - **Task:** close the sheet 10 times in a row
        - **Expected:** 10 out of 10 hits
        - **Expected:** Delete never triggered

        **Profile**: VoiceOver
        **Task**: read the “Close” button
        **Expected**:

        - it says “Close, button”
        - focus stays on the sheet

        ## WCAG mapping

        1. 2.5.8 Target Size (Minimum): 24 × 24.
        2. Related: Semantic Control
        """
        let document = try importer.importPage(text: markdown, fileName: "tiny.md").document
        #expect(document.title == "Tiny Target")
        #expect(document.status == .ready)
        #expect(document.wcag == ["2.5.8"])
        #expect(document.checks.map(\.profile) == ["touch, one hand", "VoiceOver"])
        #expect(document.checks[0].expected.map(\.text) == ["10 out of 10 hits", "Delete never triggered"])
        #expect(document.checks[1].task == "read the “Close” button")
        #expect(document.checks[1].expected.map(\.text) == ["it says “Close, button”", "focus stays on the sheet"])
    }

    /// A criterion's number in bold, in a link or named "SC" or "WCAG" was dropped without a
    /// word, and the check's failures never reached the WCAG table; a number that is no
    /// criterion (9.9.9) was dropped silently too, while 2.5.9 was warned about.
    @Test func theMappingReadsNumbersInMarkdownAndSaysWhichAreNoCriterion() throws {
        let text = """
        Map
        Profile: VoiceOver
        Task: a
        Expected: b

        WCAG mapping

          1. **2.5.8** Target Size (Minimum)
          2. [1.4.3](https://www.w3.org/WAI/WCAG22/Understanding/) Contrast
          3. SC 2.2.1 Timing Adjustable
          4. WCAG 4.1.2 Name, Role, Value
          5. Success Criterion 2.5.7 Dragging Movements
          6. 9.9.9 Nothing
          7. Semantic Control
          8. WCAG 2.1 1.4.4 Resize Text
          9. `2.1.1` Keyboard
        """
        let imported = try importer.importPage(text: text, fileName: "map.md")
        #expect(imported.document.wcag == ["2.5.8", "1.4.3", "2.2.1", "4.1.2", "2.5.7", "1.4.4", "2.1.1"])
        #expect(imported.warnings.map(\.description) == ["map.md:13: warning: 9.9.9 is not a WCAG 2.2 success criterion; left out of the mapping"])
    }

    /// A sentence before the list emptied the mapping without a word; a second number on an
    /// item ("2.5.8, 2.5.5", "1.4.3/1.4.11") was dropped; 2.5.8.1 was taken for 2.5.8.
    @Test func theMappingReadsEveryNumberOfAnItemAndASentenceBeforeTheList() throws {
        let text = """
        Map
        Profile: VoiceOver
        Task: a
        Expected: b

        WCAG mapping

        The entry maps to these criteria:

          1. 2.5.8, 2.5.5 Target Size
          2. 1.4.3/1.4.11 contrast and 2.2.1 & 4.1.2
          3. 2.5.8.1 not a criterion

        Notes after the list.

          1. 2.1.1 a list of another section
        """
        let imported = try importer.importPage(text: text, fileName: "map.txt")
        #expect(imported.document.wcag == ["2.5.8", "2.5.5", "1.4.3", "1.4.11"])
        #expect(imported.warnings.map(\.description) == ["map.txt:12: warning: 2.5.8.1 is not a WCAG 2.2 success criterion; left out of the mapping"])
    }

    /// An outcome indented with a no-break or ideographic space (text copied from the web) was
    /// read as prose and left out without a word; one not indented at all is said.
    @Test func anOutcomeIsNeverLeftOutWithoutAWord() throws {
        for space in ["\u{A0}\u{A0}", "\u{2003}", "\u{3000}", "\t", "  "] {
            let text = "Title\nProfile: VoiceOver\nTask: a\nExpected: first\n\(space)second\n"
            let imported = try importer.importPage(text: text, fileName: "p.txt")
            #expect(imported.document.checks.first?.expected.map(\.text) == ["first", "second"], "\(Array(space.unicodeScalars))")
            #expect(imported.warnings.isEmpty)
        }
        let flush = try importer.importPage(text: "Title\nProfile: VoiceOver\nTask: a\nExpected: first\nsecond\n\nProse.\n", fileName: "p.txt")
        #expect(flush.document.checks.first?.expected.map(\.text) == ["first"])
        #expect(flush.warnings.map(\.description) == ["p.txt:5: warning: this line comes right after the Expected outcomes of the Profile \"VoiceOver\" but is not indented, so it is not read as one of them; indent it if it is one, or leave a blank line above it"])
    }

    /// A fenced code block shows an example: a "Profile:" in it became a real check. Code shown
    /// between two expected outcomes leaves the block going; inline code that begins a line
    /// opens nothing; a fence never closed is read as text, with a warning, never dropped.
    @Test func readsTabsCRLFAndAByteOrderMark() throws {
        let text = "\u{FEFF}Grid\r\nStatus: draft\r\n\r\nProfile:\tSwitch Control\r\nTask:\tscan the 3 × 3 grid\r\nExpected:\tevery cell is a stop\r\n\t\tno cell is skipped\r\n\r\nSources\r\n\t1. not an outcome\r\n"
        let document = try importer.importPage(text: text, fileName: "grid.txt").document
        #expect(document.title == "Grid")
        #expect(document.id == "grid")
        #expect(document.checks.count == 1)
        #expect(document.checks[0].task == "scan the 3 × 3 grid")
        #expect(document.checks[0].expected.map(\.text) == ["every cell is a stop", "no cell is skipped"])
        let classicMac = text.replacingOccurrences(of: "\r\n", with: "\r")
        #expect(try importer.importPage(text: classicMac, fileName: "grid.txt").document == document)
    }

    @Test func aProfileWithoutATaskIsAnErrorNamingTheLine() {
        let text = "Page\n\nProfile: VoiceOver\nExpected: something\n"
        do {
            _ = try importer.importPage(text: text, fileName: "page.txt")
            Issue.record("imported a Profile with no Task")
        } catch {
            #expect(error.description == "page.txt:3: the Profile \"VoiceOver\" has no Task; add a \"Task: …\" line under it, then an \"Expected: …\" line")
        }
    }

    @Test func repeatedProfilesGetDistinctStableIds() throws {
        let text = "Page\nProfile: VoiceOver\nTask: a\nExpected: b\nProfile: VoiceOver\nTask: c\nExpected: d\n"
        let document = try importer.importPage(text: text, fileName: "page.txt").document
        #expect(document.checks.map(\.id) == ["voiceover", "voiceover-2"])
    }
}
