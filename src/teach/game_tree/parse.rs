//! Reading a game tree in bracket notation: `((3 12 8) (2 4 6) (14 5 2))`.
//!
//! A leaf is an integer, the value for the side to move at the root (MAX);
//! a node is its children in parentheses, separated by spaces or commas.
//! An inner node may carry an estimate, written before its parenthesis as
//! `5:(…)`: the value a search that stops at this node (a depth limit,
//! as iterative deepening's early iterations do) takes for it. `#` starts a
//! comment to the end of the line, so a tree in a file can explain itself.
//!
//! Every error names where in the text it is (line, column and the text
//! around it), since a teacher typing a tree by hand needs to find the slip.

use super::{GameTree, Node};

/// The most nodes a tree may have: a tree is for stepping through by hand,
/// and a larger one is not read to the end by anybody.
pub const MAX_NODES: usize = 5_000;
/// The most children a node may have.
pub const MAX_CHILDREN: usize = 64;
/// The deepest a leaf may lie, in plies below the root.
pub const MAX_PLIES: u32 = 12;
/// Leaf values and estimates lie within plus or minus this: far from the
/// search's own infinity and mate values, so no leaf reads as either.
pub const MAX_VALUE: i32 = 9_999;

/// Why a tree's text could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} at line {line}, column {column}: {context}")]
pub struct ParseError {
    pub what: String,
    /// Where, counted from 1; `offset` is the byte offset in the text.
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    /// The text around the place, with `⟨here⟩` marking it.
    pub context: String,
}

/// Read a tree from its bracket notation.
pub fn parse(text: &str) -> Result<GameTree, ParseError> {
    // A byte-order mark (a file saved by Notepad) is no part of the tree.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        text,
        at: 0,
        nodes: Vec::new(),
    };
    reader.skip_blank();
    if reader.at >= text.len() {
        return Err(reader.error(
            0,
            "the tree is empty: write it as nested parentheses, like ((3 12 8) (2 4 6) (14 5 2))"
                .into(),
        ));
    }
    if reader.peek() != Some(b'(') && reader.number_ahead().is_none() {
        return Err(reader.error(
            reader.at,
            format!("expected '(' to open the root, found {}", reader.found()),
        ));
    }
    let root = reader.item(None, 0)?;
    if reader.nodes[root].children.is_empty() {
        return Err(reader.error(
            0,
            "the root is a single number: a game tree needs a root with at least one move, like (3 5)"
                .into(),
        ));
    }
    reader.skip_blank();
    if reader.at < text.len() {
        let what = if reader.peek() == Some(b')') {
            "a ')' with no '(' to close".to_string()
        } else {
            format!("{} after the end of the tree", reader.found())
        };
        return Err(reader.error(reader.at, what));
    }
    Ok(GameTree::from_nodes(reader.nodes, text))
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
    nodes: Vec<Node>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Spaces, commas and comments.
    fn skip_blank(&mut self) {
        while let Some(byte) = self.peek() {
            match byte {
                b'#' => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.at += 1;
                    }
                }
                b',' => self.at += 1,
                b if b.is_ascii_whitespace() => self.at += 1,
                _ => break,
            }
        }
    }

    /// What stands at the reading point, for a message.
    fn found(&self) -> String {
        match self.text[self.at..].chars().next() {
            None => "the end of the text".into(),
            Some(c) => format!("'{c}'"),
        }
    }

    /// The length of a number (an optional sign, then digits) at the
    /// reading point.
    fn number_ahead(&self) -> Option<usize> {
        let rest = &self.text.as_bytes()[self.at..];
        let sign = usize::from(matches!(rest.first(), Some(b'-' | b'+')));
        let digits = rest[sign..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        (digits > 0).then_some(sign + digits)
    }

    fn error(&self, offset: usize, what: String) -> ParseError {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        let line_end = self.text[offset..]
            .find('\n')
            .map_or(self.text.len(), |i| offset + i);
        // Up to 20 characters either side of the place, on its line.
        let left: String = {
            let chars: Vec<char> = self.text[line_start..offset].chars().collect();
            chars[chars.len().saturating_sub(20)..].iter().collect()
        };
        let right: String = self.text[offset..line_end].chars().take(20).collect();
        ParseError {
            what,
            line,
            column,
            offset,
            context: format!("{left}⟨here⟩{right}"),
        }
    }

    /// A leaf or a node, with its parent; its index.
    fn item(&mut self, parent: Option<usize>, ply: u32) -> Result<usize, ParseError> {
        if self.nodes.len() >= MAX_NODES {
            return Err(self.error(
                self.at,
                format!("the tree has more than {MAX_NODES} nodes, too many to step through"),
            ));
        }
        if ply > MAX_PLIES {
            return Err(self.error(
                self.at,
                format!("the tree is deeper than {MAX_PLIES} plies, too deep to step through"),
            ));
        }
        let start = self.at;
        let mut estimate = None;
        if let Some(len) = self.number_ahead() {
            let value = self.value(start, len)?;
            self.at += len;
            if self.peek() != Some(b':') {
                return Ok(self.push(Node::leaf(parent, ply, value)));
            }
            // `5:(…)`: an inner node's estimate.
            self.at += 1;
            if self.peek() != Some(b'(') {
                return Err(self.error(
                    self.at,
                    format!(
                        "expected '(' after the estimate {value}:, found {}",
                        self.found()
                    ),
                ));
            }
            estimate = Some(value);
        }
        match self.peek() {
            Some(b'(') => {}
            Some(b')') => {
                return Err(self.error(self.at, "a ')' with no '(' to close".into()));
            }
            _ => {
                return Err(self.error(
                    self.at,
                    format!(
                        "expected a number or '(', found {}: a leaf is a whole number like 3 or -12",
                        self.found()
                    ),
                ));
            }
        }
        let open = self.at;
        self.at += 1;
        let index = self.push(Node::inner(parent, ply, estimate));
        loop {
            self.skip_blank();
            match self.peek() {
                None => {
                    return Err(
                        self.error(open, "this '(' is never closed: the text ends first".into())
                    );
                }
                Some(b')') => {
                    if self.nodes[index].children.is_empty() {
                        return Err(self.error(
                            open,
                            "an empty node '()': a node needs at least one child".into(),
                        ));
                    }
                    self.at += 1;
                    return Ok(index);
                }
                Some(_) => {
                    if self.nodes[index].children.len() >= MAX_CHILDREN {
                        return Err(self.error(
                            self.at,
                            format!("a node with more than {MAX_CHILDREN} children"),
                        ));
                    }
                    let child = self.item(Some(index), ply + 1)?;
                    self.nodes[index].children.push(child);
                }
            }
        }
    }

    fn value(&self, start: usize, len: usize) -> Result<i32, ParseError> {
        self.text[start..start + len]
            .parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= MAX_VALUE)
            .ok_or_else(|| {
                self.error(
                    start,
                    format!(
                        "the value {} is out of range: leaves lie within -{MAX_VALUE}..{MAX_VALUE}",
                        &self.text[start..start + len]
                    ),
                )
            })
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }
}
