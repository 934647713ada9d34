import ParlorKit

/// A shared list opened from its bubble: each item with who added it or checked it off, a row to
/// check it off (or open it again), beside each of the viewer's own items an Edit button (its text
/// changed in place, Return saves, or Remove takes it off), and a field to add one (Return adds).
struct SharedListView: ViewComponent {
    let node: ViewNode

    /// - Parameter editing: the item whose text `me` is changing, and the text typed for it.
    init(list: SharedList, me: ParticipantID, draft: String, editing: (id: String, draft: String)?) {
        node = VStack(spacing: 8) {
            Text("Shared to-dos", style: .title2, id: "list-title")
            Text("\(list.doneCount) of \(list.items.count) done", style: .caption, color: .secondary, id: "list-progress")
            List(label: "Shared to-dos", id: "list-items") {
                for item in list.items {
                    if let editing, editing.id == item.id {
                        Self.editor(item, draft: editing.draft, removable: list.items.count > 1)
                    } else if item.addedBy == me {
                        HStack(spacing: 4) {
                            Self.row(item)
                            Button("Edit", action: Todo.Action.edit(item.id), role: .plain, label: "Edit \(item.title)", id: "edit-\(item.id)")
                        }
                    } else {
                        Self.row(item)
                    }
                }
            }
            TextField(
                "New item", text: draft, id: "new-item", placeholder: "Add to the list", maxLength: TodoNote.maxTitleLength,
                onChange: Todo.Action.setItem, onSubmit: { _ in Todo.Action.addItem })
            Button("Add", action: Todo.Action.addItem, id: "add-item")
        }.node
    }

    /// The row that checks `item` off, or opens it again.
    private static func row(_ item: SharedList.Item) -> ViewNode {
        // The label is what a screen reader says for the row: the item, who, and what pressing does.
        let label = item.doneBy.map { "Open \(item.title) again, done by \($0.mention)" } ?? "Check off \(item.title), added by \(item.addedBy.mention)"
        // Pressing it checks the item off where it is: no chevron, which would say it shows more.
        return ListRow(label: label, action: Todo.Action.setDone(item.id, item.doneBy == nil), accessory: .none) {
            HStack(spacing: 8) {
                Text(item.doneBy == nil ? "○" : "✓", style: .headline)
                VStack {
                    Text(item.title, style: .body)
                    Text(item.doneBy.map { "Done by \($0.mention)" } ?? "Added by \(item.addedBy.mention)", style: .caption, color: .secondary)
                }
            }
        }.node
    }

    /// An item of the viewer's own with its text in a field: Save (or Return), Remove, Cancel. A
    /// checked-off item keeps its text: Remove and Cancel only.
    private static func editor(_ item: SharedList.Item, draft: String, removable: Bool) -> ViewNode {
        VStack(spacing: 6) {
            if item.doneBy == nil {
                TextField(
                    "Item", text: draft, id: "edit-text-\(item.id)", placeholder: item.title, maxLength: TodoNote.maxTitleLength,
                    onChange: Todo.Action.setEdit, onSubmit: { _ in Todo.Action.saveEdit })
            } else {
                Text("\(item.title): checked off. Open it again to change its text.", style: .callout)
                Button("Open it again", action: Todo.Action.setDone(item.id, false), role: .secondary, label: "Open \(item.title) again", id: "reopen-item")
            }
            HStack(spacing: 8) {
                if item.doneBy == nil { Button("Save", action: Todo.Action.saveEdit, role: .primary, label: "Save \(item.title)", id: "save-item") }
                if removable {
                    Button("Remove", action: Todo.Action.remove(item.id), role: .destructive, label: "Remove \(item.title)", id: "remove-item")
                }
                Button("Cancel", action: Todo.Action.cancelEdit, role: .secondary, label: "Keep \(item.title) as it is", id: "cancel-edit")
            }
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
