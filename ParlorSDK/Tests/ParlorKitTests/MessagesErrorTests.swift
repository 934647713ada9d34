import Foundation
import ParlorKit
import Testing

@Suite("Error codes")
struct MessagesErrorTests {
    @Test("Every code has a unique number and a unique name")
    func uniqueCodes() {
        let codes = MessagesError.Code.all
        #expect(Set(codes.map(\.rawValue)).count == codes.count)
        #expect(Set(codes.map(\.name)).count == codes.count)
        #expect(codes.allSatisfy { !$0.name.isEmpty })
    }

    @Test("Every code is found again by its name; unknown names find nothing")
    func roundTripByName() {
        for code in MessagesError.Code.all {
            #expect(MessagesError.Code(name: code.name) == code)
        }
        #expect(MessagesError.Code(name: "noSuchCode") == nil)
        #expect(MessagesError.Code(name: "") == nil)
        #expect(MessagesError.Code(name: "URLEXCEEDSMAXSIZE") == nil)
    }

    @Test("Apple's codes keep MSMessageErrorCode's numbers; Parlor's start at 100")
    func appleNumbers() {
        let apple: [(MessagesError.Code, Int)] = [
            (.unknown, -1), (.fileNotFound, 1), (.fileUnreadable, 2), (.improperFileType, 3), (.improperFileURL, 4),
            (.stickerFileImproperFileAttributes, 5), (.stickerFileImproperFileSize, 6), (.stickerFileImproperFileFormat, 7),
            (.urlExceedsMaxSize, 8), (.sendWithoutRecentInteraction, 9), (.sendWhileNotVisible, 10),
            (.apiUnavailableInPresentationContext, 11),
        ]
        for (code, number) in apple { #expect(code.rawValue == number, "\(code.name)") }
        let parlor: [MessagesError.Code] = [
            .textExceedsMaxSize, .sessionConflict, .malformedURLState, .hostNotAllowed, .actionRefused, .networkFailure,
            .invalidValue, .mediaExceedsMaxSize, .idInUse, .appUnavailable, .messageNotChecked,
        ]
        for code in parlor { #expect(code.rawValue >= 100, "\(code.name)") }
        #expect(MessagesError.Code.all.count == apple.count + parlor.count)
    }

    @Test("A code encodes and decodes as JSON unchanged")
    func codeCoding() throws {
        for code in MessagesError.Code.all {
            let data = try JSONEncoder().encode(code)
            #expect(try JSONDecoder().decode(MessagesError.Code.self, from: data) == code)
        }
    }

    @Test("An error describes itself by code name and message, and shows the message to people")
    func descriptions() {
        let error = MessagesError(.urlExceedsMaxSize, "Too long.")
        #expect(error.description == "urlExceedsMaxSize: Too long.")
        #expect(error.localizedDescription == "Too long.")
        #expect(MessagesError.Code.sessionConflict.description == "sessionConflict (101)")
    }
}
