import ParlorKit

/// A note someone shared, read-only, opened by tapping its message.
struct NoteDetailView: ViewComponent {
    let node: ViewNode

    init(detail: NoteDetail) {
        node = VStack {
            switch detail {
            case .note(let note, let sender):
                if let priority = note.priority {
                    Image(priority.image, label: priority.label, width: 60, height: 60)
                }
                Text(note.title, style: .title, id: "detail-title")
                Text(note.priority?.label ?? "Priority unknown", style: .body, id: "detail-priority")
                Text(note.date.map { "Due \($0.formatted)" } ?? "Due date unknown", style: .body, id: "detail-date")
                if let sender { Text("Shared by \(sender.mention)", style: .caption, color: .secondary) }
                for problem in note.problems { Text(problem, style: .caption, color: .destructive) }
            case .unreadable(let reason):
                Text("This to-do could not be read", style: .headline, id: "detail-error")
                Text(reason, style: .body, color: .destructive)
            }
            Button("Back to my list", action: Todo.Action.closeDetail, role: .secondary)
        }.node
    }
}
