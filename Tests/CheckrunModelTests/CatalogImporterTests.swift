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
    @Test func aCodeBlockIsAnExampleNotACheck() throws {
        let text = """
            Fence
            Profile: VoiceOver
            Task: real task
            Expected:
              - the label reads as set:
                ```swift
                .accessibilityLabel("Add")
                ```
              - the hint is not read
            ```text
            Profile: Switch Control
            Task: example only
            Expected: shown
            ```
            ```accessibilityHint``` is not read, so:
            Profile: Voice Control
            Task: say "Tap Add"
            Expected: the item is added
            """
        let imported = try importer.importPage(text: text, fileName: "fence.md")
        #expect(imported.document.checks.map(\.task) == ["real task", "say \"Tap Add\""])
        #expect(imported.document.checks[0].expected.map(\.text) == ["the label reads as set:", "the hint is not read"])
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        let unclosed = try importer.importPage(text: "Fence\n~~~~~\nProfile: VoiceOver\nTask: a\nExpected: b\n", fileName: "fence.txt")
        #expect(unclosed.document.checks.map(\.task) == ["a"])
        #expect(unclosed.warnings.map(\.description) == ["fence.txt:2: warning: ~~~~~ opens a code block that is never closed, so it was read as text; close it with ~~~~~ if it is one"])
    }

    /// An HTML comment is hidden from the page's readers: a block put aside in one became a
    /// check no one saw on the page, and a note in one an expected outcome. A comment between
    /// two outcomes leaves the block going; one inside code is code; a fence inside a comment
    /// is comment; "<!-->" is a whole comment; what follows "-->" on its line is read; one
    /// never closed is read as text, with a warning.
    @Test func anHTMLCommentIsNotACheck() throws {
        let text = """
            <!--
            # Hidden title
            -->
            Comments
            <!-- Put aside until the redesign:
            Profile: Switch Control
            Task: scan the old toolbar
            Expected: every button is a stop
            ```
            -->
            Profile: VoiceOver <!-- confirm the rotor -->
            Task: real task
            Expected:
              - first
              <!-- - dropped outcome -->
              - <!-- a note -->
              - second <!-- and a note -->
              <!-- a note
              --> - third
            ```html
            <!-- shown in code
            ```
            <!-->
            Profile: Voice Control
            Task: say "Tap Add"
            Expected: the item is added
            <!-- x --> Check: VoiceOver reads the total
            """
        let imported = try importer.importPage(text: text, fileName: "comments.md")
        #expect(imported.document.title == "Comments")
        #expect(imported.document.checks.map(\.task) == ["real task", "say \"Tap Add\"", "VoiceOver reads the total"])
        #expect(imported.document.checks[0].profile == "VoiceOver")
        #expect(imported.document.checks[0].expected.map(\.text) == ["first", "second", "third"])
        #expect(imported.warnings.map(\.description) == ["comments.md:27: warning: \"Check:\" sentence imported as draft check \"check-1\" for review (profile: VoiceOver)"])
        let unclosed = try importer.importPage(text: "Open\n<!-- draft\nProfile: VoiceOver\nTask: a\nExpected: b\n", fileName: "open.md")
        #expect(unclosed.document.checks.map(\.task) == ["a"])
        #expect(unclosed.warnings.map(\.description) == ["open.md:2: warning: <!-- opens an HTML comment that is never closed, so this line and those after it were read as text; close it with --> if it is one"])
    }

    /// Only a comment that starts a line runs on over lines; one further in a line is a
    /// comment only when it closes there, and never in a code span or after a backslash. A
    /// "<!--" in an outcome hid every check after it; one in a code span cut the outcome and
    /// lost the WCAG mapping; a comment before a fence's backticks made a fence no reader sees.
    @Test func aCommentIsOneOnlyWhereAReaderSeesNoneOfIt() throws {
        func page(_ text: String) throws -> ProtocolDocument { try importer.importPage(text: text, fileName: "p.md").document }
        let midLine = try page("# Menu\n\nProfile: VoiceOver\nTask: open the menu\nExpected:\n  - the menu opens <!-- TODO ask\n  - focus moves\n\nProfile: Switch Control\nTask: scan\nExpected: the menu opens\n\nNotes -->\n")
        #expect(midLine.checks.map(\.profile) == ["VoiceOver", "Switch Control"])
        #expect(midLine.checks[0].expected.map(\.text) == ["the menu opens <!-- TODO ask", "focus moves"])
        let spans = try page("# Spans\n\nProfile: VoiceOver\nTask: type `<!--` then \\<!-- and <!-- a note --> `-->`\nExpected: the editor reads `<!--`\n\nWCAG <!-- 2.2 --> mapping:\n- 4.1.2 Name, Role, Value\n")
        #expect(spans.checks.map(\.task) == ["type `<!--` then \\<!-- and `-->`"])
        #expect(spans.checks[0].expected.map(\.text) == ["the editor reads `<!--`"])
        #expect(spans.wcag == ["4.1.2"])
        let fences = try page("# Fences\n\n<!-- old example -->```\n\nProfile: Zoom\nTask: zoom in\nExpected: text stays readable\n\n~~~ <!-- html -->\n<!-- start of the region\n~~~\n\nProfile: VoiceOver\nTask: t\nExpected: e\n")
        #expect(fences.checks.map(\.profile) == ["Zoom", "VoiceOver"])
        let task = try page("# Menu\n\nProfile: VoiceOver\nTask: open the menu <!-- Maria: or the sheet? --> and type <!--\nExpected: the menu opens\n")
        #expect(task.checks.map(\.task) == ["open the menu and type <!--"])
        let spanning = try page("# Menu\n\nProfile: VoiceOver\nTask: open <!-- x\n  y --> the menu\nExpected:\n  - 10 of <!-- a\n  - b -->10\n")
        #expect(spanning.checks.map(\.task) == ["open the menu"])
        #expect(spanning.checks[0].expected.map(\.text) == ["10 of <!-- a", "b -->10"])
        let heading = try page("# Menu <!-- draft\nnot yet -->\n\nProfile: VoiceOver\nTask: t\nExpected: e\n")
        #expect(heading.title == "Menu <!-- draft")
        let shell = try page("Tiny Target\n\n```sh\n# install first\nmake\n```\n\nProfile: VoiceOver\nTask: t\nExpected: e\n")
        #expect(shell.title == "Tiny Target")
    }

    /// A fence opened in a quote ends with the quote, as a reader sees it: paired with the
    /// page's next fence, it hid every check between them without a word. A quoted fence line
    /// inside a code block is a line of the code, not its end.
    @Test func aFenceInAQuoteEndsWithTheQuote() throws {
        let text = """
            # Quotes

            > Note:
            > ```
            > let x = 1

            Profile: VoiceOver
            Task: open the menu
            Expected: the menu opens

            ```
            > ```
            Profile: Hidden
            Task: h
            Expected: h
            ```

            > > ~~~
            > > some code
            > the inner quote ends here

            Profile: Switch Control
            Task: scan
            Expected: every button is a stop
            ~~~
            """
        let imported = try importer.importPage(text: text, fileName: "quotes.md")
        #expect(imported.document.checks.map(\.profile) == ["VoiceOver", "Switch Control"])
        #expect(imported.warnings.map(\.description).prefix(2) == [
            "quotes.md:4: warning: ``` opens a code block that is never closed, so it was read as text; close it with ``` if it is one",
            "quotes.md:18: warning: ~~~ opens a code block that is never closed, so it was read as text; close it with ~~~ if it is one",
        ])
        let closed = try importer.importPage(text: "# Q\n\n> ```\n> Profile: Hidden\n> ```\n\nProfile: Zoom\nTask: t\nExpected: e\n", fileName: "q.md")
        #expect(closed.document.checks.map(\.profile) == ["Zoom"])
        #expect(closed.warnings.isEmpty, "\(closed.warnings)")
    }

    /// Fences and comments open and close where Markdown's do: after a no-break space a fence
    /// line is text; indented four columns a closing line is a line of the code; a comment
    /// opened in a quote ends with the quote. Each paired the wrong lines and lost a check.
    @Test func fencesAndCommentsOpenAndCloseWhereMarkdownsDo() throws {
        func profiles(_ text: String) throws -> ([String], [String]) {
            let imported = try importer.importPage(text: text, fileName: "p.md")
            return (imported.document.checks.map(\.profile), imported.warnings.map(\.description))
        }
        let block = "Profile: A\nTask: do A\nExpected:\n  - A ok\n"
        let noBreak = try profiles("# T\n\nProfile: Z\nTask: z\nExpected: z\n\u{A0}```\n\n\(block)\u{A0}```\n")
        #expect(noBreak.0 == ["Z", "A"])
        let deepCloser = try profiles("# T\n\n```\nx\n    ```\n\n\(block)```\n\nProfile: B\nTask: do B\nExpected: B ok\n")
        #expect(deepCloser.0 == ["B"], "\(deepCloser)")
        let quoted = try profiles("# T\n\n> <!--\n> note\n\n\(block)\n> -->\n\nProfile: B\nTask: do B\nExpected: B ok\n")
        #expect(quoted.0 == ["A", "B"])
        #expect(quoted.1.first == "p.md:3: warning: <!-- opens an HTML comment that is never closed, so this line and those after it were read as text; close it with --> if it is one")
        let closedInQuote = try profiles("# T\n\n> <!--\n> \(block.replacingOccurrences(of: "\n", with: "\n> "))-->\n\nProfile: B\nTask: do B\nExpected: B ok\n")
        #expect(closedInQuote.0 == ["B"] && closedInQuote.1.isEmpty, "\(closedInQuote)")
    }

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
