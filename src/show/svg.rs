//! A small SVG writer: shapes and text with escaped content, no ids (so several pictures can
//! be inlined into one HTML page), a `class` on every element for styling and DOM checks.

use std::fmt::Write;

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // XML 1.0 forbids most control characters even when escaped.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Text alignment around the anchor point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn as_str(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// How a shape is painted.
#[derive(Debug, Clone, Copy)]
pub struct Paint<'a> {
    pub fill: &'a str,
    pub stroke: &'a str,
    pub stroke_width: f64,
    /// `stroke-dasharray`, e.g. `"4 3"`.
    pub dash: Option<&'a str>,
}

impl Paint<'_> {
    /// A stroke only.
    pub fn stroke(colour: &str, width: f64) -> Paint<'_> {
        Paint {
            fill: "none",
            stroke: colour,
            stroke_width: width,
            dash: None,
        }
    }

    /// A fill only.
    pub fn fill(colour: &str) -> Paint<'_> {
        Paint {
            fill: colour,
            stroke: "none",
            stroke_width: 0.0,
            dash: None,
        }
    }

    fn attrs(&self, out: &mut String) {
        let _ = write!(out, r#" fill="{}" stroke="{}""#, self.fill, self.stroke);
        if self.stroke != "none" {
            let _ = write!(out, r#" stroke-width="{}""#, num(self.stroke_width));
        }
        if let Some(d) = self.dash {
            let _ = write!(out, r#" stroke-dasharray="{d}""#);
        }
    }
}

/// Text style.
#[derive(Debug, Clone, Copy)]
pub struct Font<'a> {
    pub size: f64,
    pub colour: &'a str,
    pub bold: bool,
    pub anchor: Anchor,
}

/// A number with at most two decimals, without trailing zeros (keeps documents small).
fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// An SVG document under construction.
#[derive(Debug, Clone)]
pub struct Svg {
    width: f64,
    height: f64,
    class: String,
    body: String,
}

impl Svg {
    /// An empty picture of `width` x `height` user units; `class` names it (`dodecahedron-net`).
    pub fn new(width: f64, height: f64, class: &str) -> Svg {
        Svg {
            width,
            height,
            class: class.to_string(),
            body: String::new(),
        }
    }

    /// A closed polygon through `points`; `title` becomes a tooltip when given.
    pub fn polygon(
        &mut self,
        points: &[(f64, f64)],
        paint: Paint,
        class: &str,
        title: Option<&str>,
    ) {
        let pts: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let _ = write!(
            self.body,
            r#"<polygon class="{}" points="{}""#,
            escape(class),
            pts.join(" ")
        );
        paint.attrs(&mut self.body);
        self.close(title, "polygon");
    }

    /// A line segment.
    pub fn line(
        &mut self,
        from: (f64, f64),
        to: (f64, f64),
        paint: Paint,
        class: &str,
        title: Option<&str>,
    ) {
        let _ = write!(
            self.body,
            r#"<line class="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke-linecap="round""#,
            escape(class),
            num(from.0),
            num(from.1),
            num(to.0),
            num(to.1)
        );
        paint.attrs(&mut self.body);
        self.close(title, "line");
    }

    /// A rectangle with its top-left corner at `(x, y)`.
    pub fn rect(
        &mut self,
        (x, y): (f64, f64),
        (w, h): (f64, f64),
        paint: Paint,
        class: &str,
        title: Option<&str>,
    ) {
        let _ = write!(
            self.body,
            r#"<rect class="{}" x="{}" y="{}" width="{}" height="{}""#,
            escape(class),
            num(x),
            num(y),
            num(w),
            num(h)
        );
        paint.attrs(&mut self.body);
        self.close(title, "rect");
    }

    /// A circle.
    pub fn circle(&mut self, (cx, cy): (f64, f64), r: f64, paint: Paint, class: &str) {
        let _ = write!(
            self.body,
            r#"<circle class="{}" cx="{}" cy="{}" r="{}""#,
            escape(class),
            num(cx),
            num(cy),
            num(r)
        );
        paint.attrs(&mut self.body);
        self.body.push_str("/>");
    }

    /// Text whose baseline is centred vertically on `(x, y)`.
    pub fn text(&mut self, (x, y): (f64, f64), text: &str, font: Font, class: &str) {
        let _ = write!(
            self.body,
            r#"<text class="{}" x="{}" y="{}" font-size="{}" fill="{}" text-anchor="{}" dominant-baseline="central""#,
            escape(class),
            num(x),
            num(y),
            num(font.size),
            font.colour,
            font.anchor.as_str()
        );
        if font.bold {
            self.body.push_str(r#" font-weight="bold""#);
        }
        let _ = write!(self.body, ">{}</text>", escape(text));
    }

    fn close(&mut self, title: Option<&str>, tag: &str) {
        match title {
            Some(t) => {
                let _ = write!(self.body, "><title>{}</title></{tag}>", escape(t));
            }
            None => self.body.push_str("/>"),
        }
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="{}" width="{}" height="{}" viewBox="0 0 {} {}" font-family="DejaVu Sans, Verdana, sans-serif"><rect class="background" width="100%" height="100%" fill="white"/>{}</svg>"#,
            escape(&self.class),
            num(self.width),
            num(self.height),
            num(self.width),
            num(self.height),
            self.body
        ) + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_control_bytes_replaced() {
        assert_eq!(
            escape("a<b & \"c\"\u{1}"),
            "a&lt;b &amp; &quot;c&quot;\u{FFFD}"
        );
        let mut s = Svg::new(10.0, 10.0, "t");
        s.text(
            (1.0, 2.0),
            "<script>",
            Font {
                size: 12.0,
                colour: "black",
                bold: true,
                anchor: Anchor::Middle,
            },
            "label",
        );
        let doc = s.finish();
        assert!(doc.contains("&lt;script&gt;"), "{doc}");
        assert!(!doc.contains("<script>"));
        assert!(doc.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    }

    #[test]
    fn shapes_carry_class_paint_and_tooltip() {
        let mut s = Svg::new(100.0, 50.0, "t");
        s.line(
            (0.0, 0.0),
            (10.5, 3.333),
            Paint::stroke("#d62728", 3.0),
            "edge bad",
            Some("faces 1 and 2"),
        );
        let doc = s.finish();
        assert!(doc.contains(r##"<line class="edge bad" x1="0" y1="0" x2="10.5" y2="3.33" stroke-linecap="round" fill="none" stroke="#d62728" stroke-width="3"><title>faces 1 and 2</title></line>"##), "{doc}");
    }
}
