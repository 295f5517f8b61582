//! The course screen's state (`:course` in teach mode, `kibitz learn`):
//! the chapter and page shown, with the learner's progress, and what a key
//! does to them. Teach mode opens lessons from it and draws it
//! (`modes/teach/course.rs`).

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::learn::{self, Chapter, Progress};

/// The course screen's state: the progress (chapter and page shown) and
/// how far the page is scrolled.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseView {
    pub progress: Progress,
    pub scroll: usize,
}

/// What a key did on the course screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CourseKey {
    Keep,
    /// The chapter or page changed: keep the progress.
    Moved,
    Close,
    /// Open lesson N (from 1) of the chapter shown.
    Open(usize),
}

impl CourseView {
    /// The chapter shown.
    pub fn chapter(&self) -> Option<&'static Chapter> {
        learn::chapter::chapter(self.progress.chapter).ok()
    }

    pub fn key(&mut self, key: KeyEvent) -> CourseKey {
        let pages = self.chapter().map_or(1, |c| c.pages.len());
        let p = &mut self.progress;
        let (chapter, page) = (p.chapter, p.page);
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return CourseKey::Close,
            KeyCode::Right | KeyCode::Char('l' | ' ') | KeyCode::PageDown => {
                if p.page + 1 < pages {
                    p.page += 1;
                } else if p.chapter < learn::chapter::COUNT {
                    p.chapter += 1;
                    p.page = 0;
                }
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::PageUp => {
                if p.page > 0 {
                    p.page -= 1;
                } else if p.chapter > 1 {
                    p.chapter -= 1;
                    p.page = learn::chapter::chapter(p.chapter).map_or(0, |c| c.pages.len() - 1);
                }
            }
            KeyCode::Char(']') => {
                p.chapter = (p.chapter + 1).min(learn::chapter::COUNT);
                p.page = 0;
            }
            KeyCode::Char('[') => {
                p.chapter = p.chapter.saturating_sub(1).max(1);
                p.page = 0;
            }
            KeyCode::Down | KeyCode::Char('j') => self.scroll += 1,
            KeyCode::Up | KeyCode::Char('k') => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Char(c @ '1'..='9') => {
                let n = c as usize - '0' as usize;
                if learn::chapter::chapter(chapter).is_ok_and(|c| n <= c.lessons.len()) {
                    return CourseKey::Open(n);
                }
            }
            _ => {}
        }
        if (p.chapter, p.page) == (chapter, page) {
            return CourseKey::Keep;
        }
        self.scroll = 0;
        CourseKey::Moved
    }
}
