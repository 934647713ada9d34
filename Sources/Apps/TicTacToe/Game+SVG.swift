extension Game {
    /// The board drawn as SVG, 300 points square: the grid, the marks, and across a won game the
    /// winning line (`<line class="winning-line" …>`). It is the bubble's image, as the seed's
    /// screenshot of the grid was.
    public var svg: String {
        var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300">"##
        svg += Self.style
        svg += ##"<rect class="board" width="300" height="300"/>"##
        svg += ##"<path class="grid" d="M100 12V288M200 12V288M12 100H288M12 200H288" stroke-width="4" stroke-linecap="round"/>"##
        for (square, mark) in cells.enumerated() {
            let (x, y) = Self.center(of: square)
            switch mark {
            case .x:
                svg += ##"<path d="M\##(x - 28) \##(y - 28)L\##(x + 28) \##(y + 28)M\##(x + 28) \##(y - 28)L\##(x - 28) \##(y + 28)" class="x" stroke-width="10" stroke-linecap="round"/>"##
            case .o:
                svg += ##"<circle class="o" cx="\##(x)" cy="\##(y)" r="30" fill="none" stroke-width="10"/>"##
            case nil:
                break
            }
        }
        if case .won(_, let line) = outcome, let first = line.first, let last = line.last {
            let (x1, y1) = Self.center(of: first), (x2, y2) = Self.center(of: last)
            svg += ##"<line class="winning-line" x1="\##(x1)" y1="\##(y1)" x2="\##(x2)" y2="\##(y2)" stroke="#2e9e44" stroke-width="12" stroke-linecap="round" opacity="0.85"/>"##
        }
        return svg + "</svg>"
    }

    /// The board's colors, for the viewer's color scheme: a light board by day, a dark one in dark
    /// mode (an image follows the page's `prefers-color-scheme`). X and O have the colors the app's
    /// squares give them (`ColorRole.accent` and `.destructive`, as the client draws those roles),
    /// so a mark has one color everywhere.
    static let style = ##"<style>.board{fill:#ffffff}.grid{stroke:#3a3a3c}.x{stroke:#0062cc}.o{stroke:#d70015}"##
        + ##"@media (prefers-color-scheme: dark){.board{fill:#1c1c1e}.grid{stroke:#8e8e93}.x{stroke:#64b0ff}.o{stroke:#ff6961}}</style>"##

    /// The center of a square in the drawing's coordinates.
    static func center(of square: Int) -> (x: Int, y: Int) {
        (square % 3 * 100 + 50, square / 3 * 100 + 50)
    }
}
