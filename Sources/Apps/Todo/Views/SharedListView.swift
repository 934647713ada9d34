import ParlorKit

/// A shared list opened from its bubble: each item with who added it or checked it off, a row to
/// check it off (or open it again), and a field to add one (Return adds).
struct SharedListView: ViewComponent {
    let node: ViewNode

    init(list: SharedList, draft: String) {
        node = VStack(spacing: 8) {
            Text("Shared to-dos", style: .title2, id: "list-title")
            Text("\(list.doneCount) of \(list.items.count) done", style: .caption, color: .secondary, id: "list-progress")
            List(label: "Shared to-dos", id: "list-items") {
                for item in list.items {
                    // The label is what a screen reader says for the row: the item, who, and what pressing does.
                    let label = item.doneBy.map { "Open \(item.title) again, done by \($0.mention)" } ?? "Check off \(item.title), added by \(item.addedBy.mention)"
                    ListRow(label: label, action: Todo.Action.setDone(item.id, item.doneBy == nil)) {
                        HStack(spacing: 8) {
                            Text(item.doneBy == nil ? "○" : "✓", style: .headline)
                            VStack {
                                Text(item.title, style: .body)
                                Text(item.doneBy.map { "Done by \($0.mention)" } ?? "Added by \(item.addedBy.mention)", style: .caption, color: .secondary)
                            }
                        }
                    }
                }
            }
            TextField(
                "New item", text: draft, id: "new-item", placeholder: "Add to the list", maxLength: TodoNote.maxTitleLength,
                onChange: Todo.Action.setItem, onSubmit: { _ in Todo.Action.addItem })
            Button("Add", action: Todo.Action.addItem, id: "add-item")
        }.node
    }
}

/// In a conversation with no list open: a list for everyone there, started with its first item.
struct StartListView: ViewComponent {
    let node: ViewNode

    init(draft: String) {
        node = VStack(spacing: 8) {
            Text("A list for everyone here", style: .headline)
            Text("Anyone in the conversation adds to it and checks items off.", style: .caption, color: .secondary)
            TextField(
                "First item", text: draft, id: "first-item", placeholder: "What needs doing?", maxLength: TodoNote.maxTitleLength,
                onChange: Todo.Action.setItem, onSubmit: { _ in Todo.Action.startList })
            Button("Start a shared list", action: Todo.Action.startList, id: "start-list")
        }.node
    }
}
