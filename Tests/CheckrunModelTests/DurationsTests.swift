import CheckrunModel
import Testing

@Suite struct DurationsTests {
    /// Times in words keep their tenths at any length: in whole seconds from a minute on,
    /// 60.4 seconds read "1 minute", the very limit it went over; and 59.96 seconds read
    /// "60 seconds".
    @Test(arguments: [
        (0.04, "0 seconds"), (1, "1 second"), (12.44, "12.4 seconds"), (59.94, "59.9 seconds"), (59.96, "1 minute"),
        (60, "1 minute"), (60.04, "1 minute"), (60.05, "1 minute 0.1 seconds"), (60.4, "1 minute 0.4 seconds"),
        (61, "1 minute 1 second"), (80.25, "1 minute 20.3 seconds"), (119.96, "2 minutes"), (3599.96, "1 hour"),
        (3661.5, "1 hour 1 minute 1.5 seconds"), (7200.2, "2 hours 0.2 seconds"),
    ])
    func aTimeIsSaidToTheTenth(seconds: Double, said: String) {
        #expect(Durations.spoken(seconds) == said)
    }
}

extension DurationsTests {
    /// A time refused as longer than a day never reads as the day itself: 86400.01 seconds
    /// was "24 hours is more than a day".
    @Test func aTimeJustOverADayIsRefusedInItsOwnDigits() {
        #expect(Durations.typedTimeProblem(86_400.01) == "86400.01 seconds is more than a day")
        #expect(Durations.typedTimeProblem(90_000) == "25 hours is more than a day")
        #expect(Durations.typedTimeProblem(86_400) == nil)
    }
}
