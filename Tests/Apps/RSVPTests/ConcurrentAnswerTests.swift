import Foundation
import ParlorKit
import ParlorTesting
import RSVP
import Testing

@Suite("RSVP: answers at the same moment")
struct ConcurrentAnswerTests {
    @Test("Two participants answer from the same session head: the second is re-applied on the first, and both count")
    func sameHead() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")
        try await ann.createRSVP(titled: "Beach day")
        let head = try await simulator.latestRSVP().message

        // Both open the same bubble before either answers.
        try await bob.tapMessage(containing: "Beach day")
        try await carol.tapMessage(containing: "Beach day")
        try await bob.answer("Going")
        try await carol.answer("Can't go")
        #expect(await bob.appError() == nil)
        #expect(await carol.appError() == nil)

        let messages = await simulator.rsvpMessages()
        #expect(messages.count == 3)
        #expect(messages.allSatisfy { $0.session == head.session })
        let final = try Invitation(url: #require(messages.last).url)
        #expect(final.yes == [try await bob.rsvpID()])
        #expect(final.no == [try await carol.rsvpID()])
        #expect(messages.last?.template?.subcaption == "1 going · 1 can't go")
        #expect(messages.last?.template?.trailingSubcaption == nil)
        #expect(await carol.view().text(withID: "yes-count") == "1 going")
    }

    @Test("Three participants press their answer concurrently from the same head: no vote is lost or doubled")
    func concurrentAnswers() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol", "Dan"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")
        let dan = simulator.participant("Dan")
        try await ann.createRSVP(titled: "Hike")
        for guest in [bob, carol, dan] { try await guest.tapMessage(containing: "Hike") }

        async let bobAnswers: Void = bob.answer("Going")
        async let carolAnswers: Void = carol.answer("Can't go")
        async let danAnswers: Void = dan.answer("Going")
        _ = try await (bobAnswers, carolAnswers, danAnswers)

        for guest in [bob, carol, dan] {
            #expect(await guest.appError() == nil, "\(guest.name)'s answer was refused")
        }
        #expect(await simulator.rsvpMessages().count == 4)
        let final = try await simulator.latestRSVP().invitation
        #expect(Set(final.yes) == [try await bob.rsvpID(), try await dan.rsvpID()])
        #expect(final.no == [try await carol.rsvpID()])
        #expect(final.yesCount == 2 && final.noCount == 1)
    }
}
