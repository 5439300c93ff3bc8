// SPDX-License-Identifier: MIT
@testable import LogbookSystemd
import Logging
import Testing

@Suite struct JournaldLogHandlerTests {
    @Test func metadataKeysBecomeValidJournalFieldNames() {
        #expect(JournaldLogHandler.fieldName("trip.id") == "TRIP_ID")
        #expect(JournaldLogHandler.fieldName("gpsd") == "GPSD")
        #expect(JournaldLogHandler.fieldName("_private") == "PRIVATE")
        #expect(JournaldLogHandler.fieldName("9lives") == "LIVES")
        #expect(JournaldLogHandler.fieldName("...") == nil)
        #expect(JournaldLogHandler.fieldName("Ä-x") == "X")
    }

    @Test func levelsMapToSyslogPriorities() {
        #expect(JournaldLogHandler.priority(.critical) == 2)
        #expect(JournaldLogHandler.priority(.error) == 3)
        #expect(JournaldLogHandler.priority(.warning) == 4)
        #expect(JournaldLogHandler.priority(.info) == 6)
        #expect(JournaldLogHandler.priority(.debug) == 7)
    }

    @Test func notifierIsSilentOutsideSystemd() {
        // No NOTIFY_SOCKET in the test environment: nothing to send, no watchdog.
        let n = SystemdNotifier()
        n.ready()
        n.flush()
        #expect(n.watchdogInterval == nil)
    }
}
