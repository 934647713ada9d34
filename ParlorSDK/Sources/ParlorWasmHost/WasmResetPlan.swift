/// What lets an instance answer call after call as a new instance would, so that WasmKit
/// translates the module's code once per instance rather than once per call (nearly all of a
/// call's time for a module of any size): after each call that ends well, the host puts back the
/// memory's first image, every mutable global and every table element. Those are all the state a
/// module keeps (it may import nothing else), so nothing of one person's call is there for the
/// next: not in memory, not in a global the module does not export, not in a table.
///
/// The host can reach a global or a table only through an export, so the module is rewritten to
/// export each one under a name of Parlor's (`parlor.reset.global.N`, `parlor.reset.table.N`).
/// A module is reused only when putting those back is the whole story: tables of a fixed size,
/// active data and element segments only (a passive segment dropped by one call would stay
/// dropped; declarative ones are emptied when instantiated), mutable globals of number types,
/// constant expressions this reader knows, and at most 1,000 globals and 10,000 table elements. Any other module gets a new instance per
/// call, as before. An instance whose memory grew is not reused either (a memory cannot shrink).
struct WasmResetPlan: Sendable, Equatable {
    /// The exports the rewritten module has for its mutable globals and its tables.
    var globals: [String]
    var tables: [String]

    /// The most mutable globals and table elements put back after a call; a module with more
    /// gets a new instance per call.
    static let maxGlobals = 1_000
    static let maxTableElements = 10_000

    static let globalPrefix = "parlor.reset.global."
    static let tablePrefix = "parlor.reset.table."

    /// The plan for `bytes` and the module rewritten to follow it; nil when the module cannot be
    /// reset (it then runs each call in a new instance).
    static func prepare(_ bytes: [UInt8]) -> (plan: WasmResetPlan, bytes: [UInt8])? {
        guard let sections = WasmBinary.sections(of: bytes) else { return nil }
        var mutableGlobals: [UInt32] = []
        var tableCount: UInt32 = 0
        var tableElements = 0
        var exports: (count: UInt32, entries: ArraySlice<UInt8>)? = nil
        var names: [[UInt8]] = []
        for (id, payload) in sections {
            var section = WasmBinary.Reader(bytes: Array(payload), at: 0)
            switch id {
            case 2:  // imports: functions only (the module was checked), so no global or table is imported
                guard let count = section.u32() else { return nil }
                for _ in 0..<count {
                    guard section.name() != nil, section.name() != nil, section.byte() == 0x00, section.u32() != nil else { return nil }
                }
            case 4:  // tables: each of a fixed size
                guard let count = section.u32() else { return nil }
                for _ in 0..<count {
                    guard let type = section.byte(), type == 0x70 || type == 0x6F, section.byte() == 0x01,
                        let minimum = section.u32(), let maximum = section.u32(), minimum == maximum
                    else { return nil }
                    tableElements += Int(minimum)
                }
                tableCount = count
            case 6:  // globals: the mutable ones are put back
                guard let count = section.u32() else { return nil }
                for index in 0..<count {
                    guard let type = section.byte(), [0x7F, 0x7E, 0x7D, 0x7C, 0x7B, 0x70, 0x6F].contains(type),
                        let mutability = section.byte(), mutability <= 1, section.constantExpression()
                    else { return nil }
                    // A mutable global is put back by value: numbers only (a reference belongs to
                    // one instance).
                    if mutability == 1 {
                        guard [0x7F, 0x7E, 0x7D, 0x7C].contains(type) else { return nil }
                        mutableGlobals.append(index)
                    }
                }
            case 7:
                guard let count = section.u32() else { return nil }
                let start = section.at
                for _ in 0..<count {
                    guard let name = section.name(), section.byte() != nil, section.u32() != nil else { return nil }
                    names.append(name)
                }
                exports = (count, payload[payload.startIndex + start..<payload.startIndex + section.at])
            case 9:  // element segments: active ones with function indices only
                guard let count = section.u32() else { return nil }
                for _ in 0..<count {
                    switch section.u32() {
                    case 0?: guard section.constantExpression() else { return nil }
                    case 2?: guard section.u32() != nil, section.constantExpression(), section.byte() == 0x00 else { return nil }
                    case 3?: guard section.byte() == 0x00 else { return nil }  // declarative: emptied when instantiated
                    default: return nil
                    }
                    guard let functions = section.u32() else { return nil }
                    for _ in 0..<functions where section.u32() == nil { return nil }
                }
            case 11:  // data segments: active ones only
                guard let count = section.u32() else { return nil }
                for _ in 0..<count {
                    switch section.u32() {
                    case 0?: guard section.constantExpression() else { return nil }
                    case 2?: guard section.u32() != nil, section.constantExpression() else { return nil }
                    default: return nil
                    }
                    guard let size = section.u32(), section.take(Int(size)) != nil else { return nil }
                }
            default:
                break
            }
        }
        // What is put back after every call, outside the call's fuel: bounded.
        guard mutableGlobals.count <= maxGlobals, tableElements <= maxTableElements else { return nil }
        let plan = WasmResetPlan(
            globals: mutableGlobals.map { "\(globalPrefix)\($0)" }, tables: (0..<tableCount).map { "\(tablePrefix)\($0)" })
        guard !names.contains(where: { $0.starts(with: Array("parlor.reset.".utf8)) }) else { return nil }
        var added: [UInt8] = []
        for (name, index) in zip(plan.globals, mutableGlobals) { added += WasmBinary.name(name) + [0x03] + WasmBinary.leb(index) }
        for (name, index) in zip(plan.tables, 0..<tableCount) { added += WasmBinary.name(name) + [0x01] + WasmBinary.leb(index) }
        let entryCount = (exports?.count ?? 0) + UInt32(plan.globals.count + plan.tables.count)
        let exportPayload = WasmBinary.leb(entryCount) + Array(exports?.entries ?? []) + added
        // The export section where it was, or where the order of sections puts it (before start,
        // element, data count, code and data).
        var out = Array(bytes[0..<8])
        var written = false
        for (id, payload) in sections {
            if !written, id == 7 || [8, 9, 12, 10, 11].contains(id) {
                out += WasmBinary.section(7, exportPayload)
                written = true
                if id == 7 { continue }
            }
            out += WasmBinary.section(id, Array(payload))
        }
        if !written { out += WasmBinary.section(7, exportPayload) }
        return (plan, out)
    }
}
