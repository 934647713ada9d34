import ParlorKit

/// The note list, the same on both surfaces; `flow` labels the rows for what selecting does.
struct NoteListView: ViewComponent {
    let node: ViewNode

    init(notes: [TodoNote], flow: NoteListFlow) {
        node = VStack {
            Text(flow.heading, style: .title2)
            if notes.isEmpty {
                Text(flow.emptyText, style: .body, color: .secondary, id: "empty")
            } else {
                Text(flow.hint, style: .caption, color: .secondary)
                List(label: "To-dos", id: "notes") {
                    for note in notes {
                        ListRow(label: flow.rowLabel(for: note), action: Todo.Action.select(note.id)) {
                            HStack(spacing: 8) {
                                Image(note.priority.image, label: note.priority.label, width: 28, height: 28)
                                VStack {
                                    Text(note.title, style: .body)
                                    Text(note.date.formatted, style: .caption, color: .secondary)
                                }
                            }
                        }
                    }
                }
            }
        }.node
    }
}
