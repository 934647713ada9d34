import ParlorKit

extension RSVP {
    /// Compact: "Create RSVP". Expanded: the tapped RSVP with YES and NO (and, for the organizer,
    /// who answered), the reason it cannot be read, or the form for a new one.
    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        if environment.presentationStyle == .compact {
            compactView()
        } else if let problem = state.problem {
            problemView(problem)
        } else if let viewing = state.viewing {
            selectionView(viewing.invitation, viewer: environment.localParticipantIdentifier)
        } else {
            formView(draft: state.draftTitle)
        }
    }

    @ViewBuilder
    private func compactView() -> ViewNode {
        VStack(alignment: .center) {
            Text("Ask who is coming to your party.", style: .subheadline)
            Button("Create RSVP", action: Action.createRSVP)
        }
    }

    @ViewBuilder
    private func formView(draft: String) -> ViewNode {
        let title = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        let problem = Invitation.titleProblem(title)
        VStack {
            Text("New RSVP", style: .title)
            TextField(
                "Title", text: draft, id: "title", placeholder: "Are you coming to my party?",
                maxLength: Invitation.maxTitleLength, onChange: Action.setTitle, onSubmit: Action.submitTitle)
            if let problem, !title.isEmpty {
                Text(problem.message, style: .footnote, color: .destructive, id: "title-problem")
            }
            Button("Create", action: Action.create, disabled: problem != nil)
        }
    }

    @ViewBuilder
    private func selectionView(_ invitation: Invitation, viewer: ParticipantID) -> ViewNode {
        let mine = invitation.answer(of: viewer)
        VStack {
            Image(.asset(Invitation.imageName), label: nil, height: 160)
            Text(invitation.title, style: .title, id: "title")
            HStack {
                Text(invitation.goingText, id: "yes-count")
                Spacer()
                Text(invitation.notGoingText, id: "no-count")
            }
            Text(mine.map { "Your answer: \($0.displayName)" } ?? "Are you coming?", style: .callout, id: "your-answer")
            HStack {
                Button("YES", action: Action.answer(.yes), disabled: mine == .yes, id: "answer-yes")
                Button("NO", action: Action.answer(.no), role: .secondary, disabled: mine == .no, id: "answer-no")
            }
            if viewer == invitation.organizer {
                Divider()
                Text("Who answered", style: .headline)
                answerList(.yes, invitation.yes)
                answerList(.no, invitation.no)
            }
        }
    }

    /// The participants who gave `answer`, as mention tokens the renderer replaces by names.
    @ViewBuilder
    private func answerList(_ answer: Answer, _ participants: [ParticipantID]) -> ViewNode {
        Text("\(answer.displayName) (\(participants.count))", style: .subheadline)
        List(label: "Answered \(answer.displayName)", id: "\(answer.rawValue)-list") {
            if participants.isEmpty {
                ListRow(label: "Nobody yet") { Text("Nobody yet", style: .footnote, color: .secondary) }
            }
            for participant in participants {
                ListRow(label: participant.mention) { Text(participant.mention) }
            }
        }
    }

    @ViewBuilder
    private func problemView(_ problem: String) -> ViewNode {
        VStack {
            Text("This RSVP cannot be opened", style: .headline)
            Text(problem, color: .destructive, id: "problem")
            Button("Create RSVP", action: Action.createRSVP)
        }
    }
}
