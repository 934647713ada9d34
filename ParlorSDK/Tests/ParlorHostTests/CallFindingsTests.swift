@testable import ParlorHost
import ParlorKit
import Testing

/// What one call learns about its app, event by event.
@Suite("What a call learns about its app")
struct CallFindingsTests {
    @Test("A call starts knowing nothing against the app")
    func fresh() {
        let findings = CallFindings()
        #expect(findings.unreachable == nil)
        #expect(!findings.stateOlderThanItsMessage)
    }

    @Test("The state is older than a message once a hook sends then throws, until a later hook that sends returns")
    func olderThanItsMessage() {
        var findings = CallFindings()
        findings.threw(sent: false)
        #expect(!findings.stateOlderThanItsMessage, "a hook that sent nothing leaves the state as current as before")
        findings.threw(sent: true)
        #expect(findings.stateOlderThanItsMessage)
        findings.returned(sent: false)
        #expect(findings.stateOlderThanItsMessage, "a hook that sent nothing does not bring the state up to the message")
        findings.returned(sent: true)
        #expect(!findings.stateOlderThanItsMessage, "its state has the message it sent")
    }

    @Test("An unreachable app stays unreachable for the rest of the call, with the reason")
    func unreachable() {
        var findings = CallFindings()
        let error = MessagesError(.appUnavailable, "Probe is not responding; try again.")
        findings.appUnreachable(error)
        findings.returned(sent: false)
        #expect(findings.unreachable == error)
    }

    @Test("A failure names the hook it came from, or the sticker the host inserted")
    func sources() {
        #expect(FailureSource.hook(.willBecomeActive).description == "willBecomeActive")
        #expect(FailureSource.hook(.render).description == "render")
        #expect(FailureSource.insertSticker.description == "insertSticker")
    }
}
