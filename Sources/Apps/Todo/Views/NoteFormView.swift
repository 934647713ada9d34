import ParlorKit

/// The add form of the home surface: title, priority, date, Add.
struct NoteFormView: ViewComponent {
    let node: ViewNode

    init(draft: NoteDraft) {
        node = VStack {
            Text("New note", style: .headline)
            TextField(
                "Title", text: draft.title, id: "title", placeholder: "What needs doing?",
                maxLength: TodoNote.maxTitleLength, onChange: Todo.Action.setTitle)
            Picker(
                "Priority", selection: draft.priority, options: Priority.allCases.map { (title: $0.title, value: $0) }, id: "priority",
                onChange: Todo.Action.setPriority)
            TextField(
                "Date", text: draft.date, id: "date", placeholder: "yyyy-MM-dd", kind: .date, maxLength: 10,
                onChange: Todo.Action.setDate)
            Button("Add", action: Todo.Action.add, id: "add")
        }.node
    }
}
