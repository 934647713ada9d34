extension Game {
    /// The board drawn as SVG, 300 points square: the grid, the marks, and across a won game the
    /// winning line (`<line class="winning-line" …>`). It is the bubble's image, as the seed's
    /// screenshot of the grid was.
    public var svg: String {
        var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300">"##
        svg += ##"<rect width="300" height="300" fill="#ffffff"/>"##
        svg += ##"<path d="M100 12V288M200 12V288M12 100H288M12 200H288" stroke="#3a3a3c" stroke-width="4" stroke-linecap="round"/>"##
        for (square, mark) in cells.enumerated() {
            let (x, y) = Self.center(of: square)
            switch mark {
            case .x:
                svg += ##"<path d="M\##(x - 28) \##(y - 28)L\##(x + 28) \##(y + 28)M\##(x + 28) \##(y - 28)L\##(x - 28) \##(y + 28)" stroke="#1f5fbf" stroke-width="10" stroke-linecap="round"/>"##
            case .o:
                svg += ##"<circle cx="\##(x)" cy="\##(y)" r="30" fill="none" stroke="#d9482b" stroke-width="10"/>"##
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

    /// The center of a square in the drawing's coordinates.
    static func center(of square: Int) -> (x: Int, y: Int) {
        (square % 3 * 100 + 50, square / 3 * 100 + 50)
    }
}
