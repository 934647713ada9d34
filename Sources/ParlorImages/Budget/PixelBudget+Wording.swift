extension PixelBudget {
    /// A pixel count as people say it: "2.5 gigapixels", "40 megapixels", "250,000 pixels".
    /// An image's count is rounded up and a limit's down, so an image over a limit never reads
    /// as equal to it.
    static func amount(_ pixels: Int, roundingUp: Bool) -> String {
        let number: String, unit: String
        switch pixels {
        case 1_000_000_000...: (number, unit) = (decimal(pixels, unit: 1_000_000_000, roundingUp: roundingUp), "gigapixel")
        case 1_000_000...: (number, unit) = (decimal(pixels, unit: 1_000_000, roundingUp: roundingUp), "megapixel")
        default: (number, unit) = (grouped(pixels), "pixel")
        }
        return number == "1" ? "1 \(unit)" : "\(number) \(unit)s"
    }

    /// `value / unit` with at most one decimal ("2.5", "40").
    private static func decimal(_ value: Int, unit: Int, roundingUp: Bool) -> String {
        let tenth = unit / 10
        let tenths = value / tenth + (roundingUp && value % tenth != 0 ? 1 : 0)
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// `value` with thousands separators ("250,000").
    private static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
