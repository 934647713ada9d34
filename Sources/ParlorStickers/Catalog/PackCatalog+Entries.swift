import Foundation
import ParlorKit

extension PackCatalog {
    /// Adds the sticker `file` names: an image, a `.sticker` folder or a `.stickersequence` folder.
    mutating func addEntry(named file: String, description: String?) {
        guard CatalogNames.isPlainFileName(file) else {
            problems.append(StickerProblem(file: String(file.prefix(80)), error: MessagesError(
                .improperFileURL, "'\(file.prefix(80))' is not a plain file name in the pack folder; stickers cannot point outside it. Use the file's name only.")))
            return
        }
        let url = directory.appendingPathComponent(file)
        switch CatalogNames.pathExtension(file) {
        case "sticker":
            if let entry = readStickerFolder(url, name: file, description: description) { entries.append(entry) }
        case "stickersequence":
            if let entry = readSequenceFolder(url, name: file, description: description) { entries.append(entry) }
        default:
            let stem = CatalogNames.stem(file)
            entries.append(StickerEntry(
                path: file, stem: stem, description: description ?? CatalogNames.humanize(stem), content: .image(url)))
        }
    }

    /// A `.sticker` folder: its Contents.json names the image and its accessibility label; without
    /// one, the folder's single image and its name are used.
    private mutating func readStickerFolder(_ url: URL, name: String, description: String?) -> StickerEntry? {
        guard requireFolder(url, name: name) else { return nil }
        let json = readJSON("Contents.json", in: url, relativePath: name)
        let properties = json?[CatalogKeys.properties]
        let listedFile = properties?[CatalogKeys.fileName]?.string ?? json?[CatalogKeys.fileName]?.string
        guard let file = listedFile ?? listFolder(url, relativeTo: name).first else {
            problems.append(StickerProblem(file: name, error: MessagesError(
                .fileNotFound, "\(name) holds no image. Put the sticker's PNG, APNG, GIF or JPEG file in the folder.")))
            return nil
        }
        guard CatalogNames.isPlainFileName(file) else {
            problems.append(StickerProblem(file: name, error: MessagesError(
                .improperFileURL, "\(name)/Contents.json names '\(file.prefix(80))', which is not a file in that folder. Use the image's file name only.")))
            return nil
        }
        let stem = CatalogNames.stem(name)
        let label = description ?? properties?[CatalogKeys.description]?.string ?? json?[CatalogKeys.description]?.string
        return StickerEntry(
            path: "\(name)/\(file)", stem: stem, description: label ?? CatalogNames.humanize(stem),
            content: .image(url.appendingPathComponent(file)))
    }

    /// A `.stickersequence` folder: PNG frames (listed in its Contents.json, else the folder's
    /// images in natural order) and its duration, duration type and repetitions.
    private mutating func readSequenceFolder(_ url: URL, name: String, description: String?) -> StickerEntry? {
        guard requireFolder(url, name: name) else { return nil }
        let json = readJSON("Contents.json", in: url, relativePath: name)
        let properties = json?[CatalogKeys.properties] ?? json
        var frames: [URL] = []
        if let listed = json?[CatalogKeys.frames]?.array {
            for item in listed {
                guard let file = item[CatalogKeys.fileName]?.string ?? item.string, CatalogNames.isPlainFileName(file) else {
                    problems.append(StickerProblem(file: "\(name)/Contents.json", error: MessagesError(
                        .improperFileURL, "A frame of \(name) has no plain file name; give each frame its image's file name.")))
                    return nil
                }
                frames.append(url.appendingPathComponent(file))
            }
        } else {
            frames = listFolder(url, relativeTo: name).map { url.appendingPathComponent($0) }
        }

        var timing = SequenceTiming.standard
        if let duration = properties?[CatalogKeys.duration]?.double, duration.isFinite, duration > 0 {
            timing.duration = duration
            let type = properties?[CatalogKeys.durationType]?.string.map(LenientJSON.fold)
            timing.durationType = type == "fixed" || type == "seconds" ? .fixed : .fps
        }
        if let repetitions = properties?[CatalogKeys.repetitions]?.double, repetitions.isFinite {
            timing.repetitions = Int(min(max(repetitions, 0), 1_000_000))
        }
        let stem = CatalogNames.stem(name)
        let label = description ?? properties?[CatalogKeys.description]?.string ?? json?[CatalogKeys.description]?.string
        return StickerEntry(
            path: name, stem: stem, description: label ?? CatalogNames.humanize(stem), content: .sequence(folder: url, frames: frames, timing: timing))
    }

    private mutating func requireFolder(_ url: URL, name: String) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { return true }
        problems.append(StickerProblem(file: name, error: MessagesError(
            .fileNotFound, "\(name) is listed in the pack but there is no such folder. Add it, or remove it from Contents.json.")))
        return false
    }

    /// The names in `folder` that may be stickers (or frames), in natural order: files other than
    /// hidden ones and catalog metadata, and `.sticker`/`.stickersequence` folders.
    mutating func listFolder(_ folder: URL, relativeTo path: String) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            problems.append(StickerProblem(file: path.isEmpty ? folder.lastPathComponent : path, error: MessagesError(
                .fileUnreadable, "The folder could not be listed (\(error.localizedDescription)). Check its permissions.")))
            return []
        }
        return names.filter { name in
            let lowered = name.lowercased()
            guard !name.hasPrefix("."), !CatalogNames.metadataFiles.contains(lowered),
                  !CatalogNames.ignoredExtensions.contains(CatalogNames.pathExtension(name)),
                  !lowered.hasPrefix("readme"), !lowered.hasPrefix("license")
            else { return false }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory) else { return false }
            return !isDirectory.boolValue || ["sticker", "stickersequence"].contains(CatalogNames.pathExtension(name))
        }
        .sorted(by: CatalogNames.naturalOrder)
    }

    /// Reads `name` in `folder` as lenient JSON: nil when absent; nil and a problem when it
    /// cannot be read or is not JSON.
    mutating func readJSON(_ name: String, in folder: URL, relativePath: String = "") -> LenientJSON? {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let display = relativePath.isEmpty ? name : "\(relativePath)/\(name)"
        let data: Data
        do throws(MessagesError) {
            data = try StickerValidator.readFile(at: url, name: display, maxSize: LenientJSON.maxFileSize)
        } catch {
            problems.append(StickerProblem(file: display, error: error))
            return nil
        }
        do {
            let json = try LenientJSON(data: data)
            guard json.isObject else { throw CocoaError(.propertyListReadCorrupt) }
            return json
        } catch {
            problems.append(StickerProblem(file: display, error: MessagesError(
                .fileUnreadable, "\(display) is not a valid JSON object, so its settings were ignored. Fix it (a missing comma or brace is the usual cause) or delete it.")))
            return nil
        }
    }
}
