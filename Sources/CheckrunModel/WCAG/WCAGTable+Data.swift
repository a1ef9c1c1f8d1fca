// The WCAG 2.2 success criteria (number, name, level, principle), from the W3C source files.
// Embedded so the binary works from any folder; a test keeps it equal to Tests/Fixtures/wcag22.tsv.
extension WCAGTable {
    static let embeddedTSV = #"""
sc	name	level	principle
1.1.1	Non-text Content	A	Perceivable
1.2.1	Audio-only and Video-only (Prerecorded)	A	Perceivable
1.2.2	Captions (Prerecorded)	A	Perceivable
1.2.3	Audio Description or Media Alternative (Prerecorded)	A	Perceivable
1.2.4	Captions (Live)	AA	Perceivable
1.2.5	Audio Description (Prerecorded)	AA	Perceivable
1.2.6	Sign Language (Prerecorded)	AAA	Perceivable
1.2.7	Extended Audio Description (Prerecorded)	AAA	Perceivable
1.2.8	Media Alternative (Prerecorded)	AAA	Perceivable
1.2.9	Audio-only (Live)	AAA	Perceivable
1.3.1	Info and Relationships	A	Perceivable
1.3.2	Meaningful Sequence	A	Perceivable
1.3.3	Sensory Characteristics	A	Perceivable
1.3.4	Orientation	AA	Perceivable
1.3.5	Identify Input Purpose	AA	Perceivable
1.3.6	Identify Purpose	AAA	Perceivable
1.4.1	Use of Color	A	Perceivable
1.4.2	Audio Control	A	Perceivable
1.4.3	Contrast (Minimum)	AA	Perceivable
1.4.4	Resize Text	AA	Perceivable
1.4.5	Images of Text	AA	Perceivable
1.4.6	Contrast (Enhanced)	AAA	Perceivable
1.4.7	Low or No Background Audio	AAA	Perceivable
1.4.8	Visual Presentation	AAA	Perceivable
1.4.9	Images of Text (No Exception)	AAA	Perceivable
1.4.10	Reflow	AA	Perceivable
1.4.11	Non-text Contrast	AA	Perceivable
1.4.12	Text Spacing	AA	Perceivable
1.4.13	Content on Hover or Focus	AA	Perceivable
2.1.1	Keyboard	A	Operable
2.1.2	No Keyboard Trap	A	Operable
2.1.3	Keyboard (No Exception)	AAA	Operable
2.1.4	Character Key Shortcuts	A	Operable
2.2.1	Timing Adjustable	A	Operable
2.2.2	Pause, Stop, Hide	A	Operable
2.2.3	No Timing	AAA	Operable
2.2.4	Interruptions	AAA	Operable
2.2.5	Re-authenticating	AAA	Operable
2.2.6	Timeouts	AAA	Operable
2.3.1	Three Flashes or Below Threshold	A	Operable
2.3.2	Three Flashes	AAA	Operable
2.3.3	Animation from Interactions	AAA	Operable
2.4.1	Bypass Blocks	A	Operable
2.4.2	Page Titled	A	Operable
2.4.3	Focus Order	A	Operable
2.4.4	Link Purpose (In Context)	A	Operable
2.4.5	Multiple Ways	AA	Operable
2.4.6	Headings and Labels	AA	Operable
2.4.7	Focus Visible	AA	Operable
2.4.8	Location	AAA	Operable
2.4.9	Link Purpose (Link Only)	AAA	Operable
2.4.10	Section Headings	AAA	Operable
2.4.11	Focus Not Obscured (Minimum)	AA	Operable
2.4.12	Focus Not Obscured (Enhanced)	AAA	Operable
2.4.13	Focus Appearance	AAA	Operable
2.5.1	Pointer Gestures	A	Operable
2.5.2	Pointer Cancellation	A	Operable
2.5.3	Label in Name	A	Operable
2.5.4	Motion Actuation	A	Operable
2.5.5	Target Size (Enhanced)	AAA	Operable
2.5.6	Concurrent Input Mechanisms	AAA	Operable
2.5.7	Dragging Movements	AA	Operable
2.5.8	Target Size (Minimum)	AA	Operable
3.1.1	Language of Page	A	Understandable
3.1.2	Language of Parts	AA	Understandable
3.1.3	Unusual Words	AAA	Understandable
3.1.4	Abbreviations	AAA	Understandable
3.1.5	Reading Level	AAA	Understandable
3.1.6	Pronunciation	AAA	Understandable
3.2.1	On Focus	A	Understandable
3.2.2	On Input	A	Understandable
3.2.3	Consistent Navigation	AA	Understandable
3.2.4	Consistent Identification	AA	Understandable
3.2.5	Change on Request	AAA	Understandable
3.2.6	Consistent Help	A	Understandable
3.3.1	Error Identification	A	Understandable
3.3.2	Labels or Instructions	A	Understandable
3.3.3	Error Suggestion	AA	Understandable
3.3.4	Error Prevention (Legal, Financial, Data)	AA	Understandable
3.3.5	Help	AAA	Understandable
3.3.6	Error Prevention (All)	AAA	Understandable
3.3.7	Redundant Entry	A	Understandable
3.3.8	Accessible Authentication (Minimum)	AA	Understandable
3.3.9	Accessible Authentication (Enhanced)	AAA	Understandable
4.1.2	Name, Role, Value	A	Robust
4.1.3	Status Messages	AA	Robust
"""#
}
