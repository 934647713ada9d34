import ParlorKit

extension RSVP {
    /// Compact: "Create RSVP". Expanded: the tapped RSVP with its answer control and who
    /// answered, the reason it cannot be read, or the form for a new one.
    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        if environment.presentationStyle == .compact {
            compactView()
        } else if let problem = state.problem {
            problemView(problem)
        } else if let viewing = state.viewing {
            selectionView(viewing.invitation, viewer: environment.localParticipantIdentifier)
        } else {
            formView(state)
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
    private func formView(_ state: State) -> ViewNode {
        let title = state.draftTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        let problem = Invitation.titleProblem(title)
        let detailProblem = Invitation.detailProblem(Invitation.detail(state.draftWhen), name: "The time")
            ?? Invitation.detailProblem(Invitation.detail(state.draftPlace), name: "The place")
        VStack {
            Text("New RSVP", style: .title)
            TextField(
                "Title", text: state.draftTitle, id: "title", placeholder: "Are you coming to my party?",
                maxLength: Invitation.maxTitleLength, onChange: Action.setTitle, onSubmit: Action.submitTitle)
            if let problem, !title.isEmpty {
                Text(problem.message, style: .footnote, color: .destructive, id: "title-problem")
            }
            TextField(
                "When (optional)", text: state.draftWhen, id: "when", placeholder: "Friday at 8 PM",
                maxLength: Invitation.maxDetailLength, onChange: Action.setWhen)
            TextField(
                "Where (optional)", text: state.draftPlace, id: "place", placeholder: "Ann's place",
                maxLength: Invitation.maxDetailLength, onChange: Action.setPlace)
            if let detailProblem {
                Text(detailProblem.message, style: .footnote, color: .destructive, id: "detail-problem")
            }
            Button("Create", action: Action.create, disabled: problem != nil || detailProblem != nil)
        }
    }

    @ViewBuilder
    private func selectionView(_ invitation: Invitation, viewer: ParticipantID) -> ViewNode {
        let mine = invitation[viewer]
        VStack {
            Image(.asset(Invitation.imageName), label: nil, height: 160)
            Text(invitation.title, style: .title, id: "title")
            if let when = invitation.when { Text("When: \(when)", style: .callout, id: "when") }
            if let place = invitation.place { Text("Where: \(place)", style: .callout, id: "place") }
            HStack {
                Text(invitation.goingText, id: "yes-count")
                Spacer()
                Text(invitation.maybeText, id: "maybe-count")
                Spacer()
                Text(invitation.notGoingText, id: "no-count")
            }
            Text(mine.map { "Your answer: \($0.choiceTitle)" } ?? "Are you coming?", style: .callout, id: "your-answer")
            // The answer given is shown selected; choosing another changes it.
            Picker(
                "Your answer", selection: mine, options: Answer.allCases.map { (title: $0.choiceTitle, value: Optional($0)) }, id: "answer",
                onChange: { Action.answer($0 ?? .yes) })
            // Everyone sees who answered, as the transcript's lines already say it ("Bob is going").
            Divider()
            Text("Who answered", style: .headline)
            for answer in Answer.allCases { answerLine(answer, invitation.participants(answering: answer)) }
        }
    }

    /// The participants who gave `answer`, in one line of mention tokens the renderer replaces
    /// by names: "Going (2): Bob, Dan" (text, not rows that look like fields).
    private func answerLine(_ answer: Answer, _ participants: [ParticipantID]) -> ViewNode {
        let names = participants.isEmpty ? "nobody yet" : participants.map(\.mention).joined(separator: Self.nameSeparator)
        return Text("\(answer.choiceTitle) (\(participants.count)): \(names)", id: "\(answer.rawValue)-names").node
    }

    /// Between two names of one answer's line.
    public static let nameSeparator = ", "

    @ViewBuilder
    private func problemView(_ problem: String) -> ViewNode {
        VStack {
            Text("This RSVP cannot be opened", style: .headline)
            Text(problem, color: .destructive, id: "problem")
            Button("Create RSVP", action: Action.createRSVP)
        }
    }
}
