import ParlorKit

/// The add form of the home surface: title, priority, date, Add (or Return in a field).
struct NoteFormView: ViewComponent {
    let node: ViewNode

    init(draft: NoteDraft) {
        node = VStack {
            Text("New note", style: .headline)
            TextField(
                "Title", text: draft.title, id: "title", placeholder: "What needs doing?",
                maxLength: TodoNote.maxTitleLength, onChange: Todo.Action.setTitle, onSubmit: { _ in Todo.Action.add })
            Picker(
                "Priority", selection: draft.priority, options: Priority.allCases.map { (title: $0.title, value: $0) }, id: "priority",
                onChange: Todo.Action.setPriority)
            TextField(
                "Date", text: draft.date, id: "date", kind: .date, maxLength: 10,
                onChange: Todo.Action.setDate, onSubmit: { _ in Todo.Action.add })
            Button("Add", action: Todo.Action.add, id: "add")
        }.node
    }
}
