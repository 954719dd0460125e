//! Terminal pictures: styled text, and a character canvas that draws lines in Unicode braille
//! (2 x 4 dots per character) with text on top.
//!
//! Styles become ANSI colours only when asked ([`Text::render`] with `colour`); every style
//! that carries meaning has a plain-text counterpart in the drawing itself (a thicker line, a
//! marker character), so a piped picture says the same.

/// The meaning of a piece of text; the renderer picks the colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    #[default]
    Plain,
    /// Headings, face numbers.
    Bold,
    /// Secondary information.
    Dim,
    /// Something wrong (red).
    Bad,
    /// Something right (green).
    Good,
    /// A warning (yellow).
    Warn,
}

impl Style {
    fn sgr(self) -> &'static str {
        match self {
            Style::Plain => "",
            Style::Bold => "\x1b[1m",
            Style::Dim => "\x1b[2m",
            Style::Bad => "\x1b[1;31m",
            Style::Good => "\x1b[32m",
            Style::Warn => "\x1b[33m",
        }
    }
}

/// Lines of styled spans.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    lines: Vec<Vec<(Style, String)>>,
}

impl Text {
    pub fn new() -> Text {
        Text::default()
    }

    /// Starts a new line.
    pub fn newline(&mut self) -> &mut Self {
        self.lines.push(Vec::new());
        self
    }

    /// Appends `text` in `style` to the current line (starting one if there is none).
    pub fn push(&mut self, style: Style, text: impl Into<String>) -> &mut Self {
        if self.lines.is_empty() {
            self.lines.push(Vec::new());
        }
        if let Some(line) = self.lines.last_mut() {
            line.push((style, text.into()));
        }
        self
    }

    /// Appends a whole line of plain `text`.
    pub fn line(&mut self, style: Style, text: impl Into<String>) -> &mut Self {
        self.lines.push(vec![(style, text.into())]);
        self
    }

    /// Appends the lines of `other`.
    pub fn extend(&mut self, other: Text) -> &mut Self {
        self.lines.extend(other.lines);
        self
    }

    /// The text with ANSI colours (`colour`) or without; trailing spaces trimmed, every line
    /// ending in a newline.
    pub fn render(&self, colour: bool) -> String {
        let mut out = String::new();
        for line in &self.lines {
            let mut s = String::new();
            for (style, text) in line {
                let core = text.trim();
                if colour && *style != Style::Plain && !core.is_empty() {
                    // Padding stays outside the colour codes.
                    let lead = text.len() - text.trim_start().len();
                    s.push_str(&text[..lead]);
                    s.push_str(style.sgr());
                    s.push_str(core);
                    s.push_str("\x1b[0m");
                    s.push_str(&text[lead + core.len()..]);
                } else {
                    s.push_str(text);
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        }
        out
    }

    /// The plain text (no colour).
    pub fn plain(&self) -> String {
        self.render(false)
    }
}

/// A grid of characters: lines drawn with braille dots, text written over them.
#[derive(Debug, Clone)]
pub struct Canvas {
    width: usize,
    height: usize,
    /// Braille dot bits per cell (bit layout of U+2800).
    dots: Vec<u8>,
    /// Style of the dots per cell (the most severe one drawn there wins).
    dot_style: Vec<Style>,
    /// Text characters per cell (over the dots).
    text: Vec<Option<(char, Style)>>,
}

fn severity(s: Style) -> u8 {
    match s {
        Style::Bad => 3,
        Style::Warn => 2,
        Style::Plain | Style::Bold | Style::Good => 1,
        Style::Dim => 0,
    }
}

impl Canvas {
    /// An empty canvas of `width` x `height` characters.
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            dots: vec![0; width * height],
            dot_style: vec![Style::Dim; width * height],
            text: vec![None; width * height],
        }
    }

    /// Sets the dot at `(x, y)` in dot coordinates (2 per character across, 4 down).
    pub fn dot(&mut self, x: i64, y: i64, style: Style) {
        if x < 0 || y < 0 {
            return;
        }
        let (cx, cy) = (x as usize / 2, y as usize / 4);
        if cx >= self.width || cy >= self.height {
            return;
        }
        const BITS: [[u8; 4]; 2] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
        let i = cy * self.width + cx;
        self.dots[i] |= BITS[x as usize % 2][y as usize % 4];
        if self.dots[i] == BITS[x as usize % 2][y as usize % 4]
            || severity(style) > severity(self.dot_style[i])
        {
            self.dot_style[i] = style;
        }
    }

    /// A straight line between two points in dot coordinates.
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), style: Style) {
        let steps = (to.0 - from.0)
            .abs()
            .max((to.1 - from.1).abs())
            .ceil()
            .max(1.0) as usize;
        for i in 0..=steps {
            let t = i as f64 / steps as f64;
            let x = from.0 + (to.0 - from.0) * t;
            let y = from.1 + (to.1 - from.1) * t;
            self.dot(x.round() as i64, y.round() as i64, style);
        }
    }

    /// Writes `text` with its first character at cell `(col, row)`; characters outside the
    /// canvas are dropped.
    pub fn write(&mut self, col: i64, row: i64, text: &str, style: Style) {
        if row < 0 || row as usize >= self.height {
            return;
        }
        for (k, c) in text.chars().enumerate() {
            let x = col + k as i64;
            if x >= 0 && (x as usize) < self.width {
                self.text[row as usize * self.width + x as usize] = Some((c, style));
            }
        }
    }

    /// Writes `text` centred on cell `(col, row)`.
    pub fn write_centred(&mut self, col: i64, row: i64, text: &str, style: Style) {
        let len = text.chars().count() as i64;
        self.write(col - len / 2, row, text, style);
    }

    /// The canvas as [`Text`], one line per row (blank rows at the edges dropped).
    pub fn into_text(self) -> Text {
        let mut rows: Vec<Vec<(Style, String)>> = Vec::with_capacity(self.height);
        for r in 0..self.height {
            let mut spans: Vec<(Style, String)> = Vec::new();
            for c in 0..self.width {
                let i = r * self.width + c;
                let (ch, style) = match self.text[i] {
                    Some(t) => t,
                    None if self.dots[i] != 0 => (
                        char::from_u32(0x2800 + u32::from(self.dots[i])).unwrap_or(' '),
                        self.dot_style[i],
                    ),
                    None => (' ', Style::Plain),
                };
                match spans.last_mut() {
                    Some((s, t)) if *s == style || ch == ' ' => t.push(ch),
                    _ => spans.push((style, ch.to_string())),
                }
            }
            rows.push(spans);
        }
        let blank = |r: &Vec<(Style, String)>| r.iter().all(|(_, t)| t.trim().is_empty());
        while rows.first().is_some_and(blank) {
            rows.remove(0);
        }
        while rows.last().is_some_and(blank) {
            rows.pop();
        }
        Text { lines: rows }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_rendering_has_no_escape_codes() {
        let mut t = Text::new();
        t.push(Style::Bad, "red").push(Style::Plain, " ok  ");
        t.line(Style::Good, "green");
        assert_eq!(t.render(false), "red ok\ngreen\n");
        let c = t.render(true);
        assert!(c.starts_with("\x1b[1;31mred\x1b[0m ok\n"), "{c:?}");
    }

    #[test]
    fn canvas_draws_braille_and_text_over_it() {
        let mut c = Canvas::new(4, 2);
        c.line((0.0, 0.0), (7.0, 0.0), Style::Plain);
        c.write(1, 1, "ab", Style::Bad);
        let t = c.into_text();
        // Top row: the top dot of both columns of every cell (U+2809).
        assert_eq!(t.plain(), "\u{2809}\u{2809}\u{2809}\u{2809}\n ab\n");
        assert!(t.render(true).contains("\x1b[1;31mab\x1b[0m"));
    }

    #[test]
    fn the_most_severe_style_wins_in_a_shared_cell() {
        let mut c = Canvas::new(1, 1);
        c.dot(0, 0, Style::Plain);
        c.dot(1, 0, Style::Bad);
        c.dot(0, 1, Style::Dim);
        assert!(c.into_text().render(true).starts_with("\x1b[1;31m"));
    }
}
