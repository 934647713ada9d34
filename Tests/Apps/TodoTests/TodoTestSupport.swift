import ParlorKit
import ParlorTesting
import Todo

/// Fills the home surface's form and taps Add, as a user would.
func addNote(_ participant: SimulatedParticipant, title: String, priority: String = "Medium", date: String) async throws {
    try await participant.typeHome(title, into: "Title", in: "Todo")
    try await participant.chooseHome(priority, in: "Priority", app: "Todo")
    try await participant.typeHome(date, into: "Date", in: "Todo")
    try await participant.tapHome("Add", in: "Todo")
}

extension ViewNode {
    /// The accessibility labels of the list's selectable rows, in order.
    var rowLabels: [String] {
        allNodes.compactMap { node in
            if case .row(let row) = node, row.action != nil { return row.label }
            return nil
        }
    }

    /// Whether the view has a text field, picker or button with this label.
    func hasControl(_ label: String) -> Bool {
        allNodes.contains { node in
            switch node {
            case .textField(let field): field.label == label
            case .picker(let picker): picker.label == label
            case .button(let button): button.label == label
            default: false
            }
        }
    }
}
