extension Wire {
    /// Every error code Parlor's own rules answer with, in HTTP bodies (`{"error": {"code"…}}`) and
    /// WebSocket `error` frames, listed once. The other codes a client can meet are the Messages
    /// codes of `MessagesError.Code` (ParlorKit), which keep their names on the wire; a few names
    /// are in both with the same meaning. docs/openapi.yaml lists the union as the `code` enum of
    /// its Error schema, and `OpenAPITests` checks that it is this set.
    public enum ErrorCode: String, CaseIterable, Sendable {
        // Requests and bodies.
        case unauthorized, notFound, methodNotAllowed, invalidValue, malformedBody, malformedFrame, bodyTooLarge
        case crossSiteRequest, adminOnly, conflict, unavailable, unknown, unsupportedProtocol
        // Too many, too fast: a 429 with `retryAfter`.
        case tooManySignUps, tooManyAdditions, sendingTooFast, reactingTooFast, placingTooFast, previewingTooFast, searchingTooFast
        case tooManyImages
        // Accounts and sign-in.
        case usernameTaken, wrongCredentials, wrongPassword, unknownUser, tooManyAttempts, tooManyNameChanges
        // Conversations.
        case notAGroup, notAdmin, lastAdmin, groupFull, tooManyPinned, personBlocked, tooManyBlocked
        // Messages.
        case sessionConflict, replyTargetNotFound, stickerTargetNotFound, invalidPlacement, mentionNotMember, tooManyMentions
        case notYourMessage, notEditable, editWindowClosed, tooManyEdits, notUnsendable, unsendWindowClosed, messageUnsent
        case invalidReaction, tooManyReactions, searchTooLong, previewUnavailable, notForwardable
        // Files and images.
        case emptyUpload, uploadQuotaExceeded, invalidFileName, improperFileType, attachmentNotFound, avatarNotFound, invalidVoiceMessage
        case imageTooLarge, unreadableImage, imageUnavailable, unsignedImage, imageProxyBusy
        // Apps.
        case unknownApp, unknownAppCredential, appNameTaken, appNotInstalled, appNotOpen, appBusy, noHomeSurface
        case nothingStaged, hostNotAllowed
    }
}
