import CheckrunModel
import Testing

/// What a Markdown page hides from its readers (code blocks, HTML comments) is hidden from the
/// importer too, and nothing a reader sees is lost: each case paired the wrong lines once.
@Suite struct CatalogImporterMarkdownTests {
    let importer = CatalogImporter()

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
}
