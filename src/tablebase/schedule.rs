//! Making many tables at once: the generating threads share a queue of the
//! tables still to make, each taken as soon as its smaller tables are done.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};

use super::material::Material;
use super::retro::{self, Table};
use super::{Builtin, Pace, Slot, lower_thread_priority};

impl Builtin {
    /// Generate every table of `materials` not here yet, on up to `threads`
    /// threads at once: a thread that finishes a table takes the next one
    /// whose smaller tables are all done. `done` hears of each finished
    /// table and its time in seconds.
    pub fn generate_all(
        &mut self,
        materials: &[Material],
        threads: usize,
        done: &mut dyn FnMut(&Table, f64),
    ) -> Result<(), String> {
        self.generate_all_paced(materials, threads, &Pace::default(), done, &mut |_, _| {})
    }

    /// As [`Builtin::generate_all`], sharing the machine as `pace` says.
    ///
    /// The threads share a queue rather than working in rounds: a round
    /// waits for its slowest table, while a queue keeps every thread busy
    /// until the last few tables. Among the tables that are ready, the one
    /// heading the longest chain of work still to come goes first (the
    /// critical path), so the big pawn tables at the end of the chain do
    /// not start late and run alone.
    ///
    /// `progress` hears, on the caller's thread, of every step of the work:
    /// the table being made (the one started first, of those running) and
    /// the fraction of the whole work done (0 to 1, by the tables' sizes).
    /// If `pace` asks to stop, the answer is `Err(retro::STOPPED)`; the
    /// tables finished until then are here and were handed to `done`.
    pub fn generate_all_paced(
        &mut self,
        materials: &[Material],
        threads: usize,
        pace: &Pace,
        done: &mut dyn FnMut(&Table, f64),
        progress: &mut dyn FnMut(&Material, f64),
    ) -> Result<(), String> {
        let todo: Vec<Material> = materials
            .iter()
            .filter(|m| !self.contains(m))
            .cloned()
            .collect();
        if todo.is_empty() {
            return Ok(());
        }
        let priority = critical_path(&todo);
        let size = |m: &Material| retro::Layout::new(m).size as f64;
        let total: f64 = todo.iter().map(size).sum::<f64>().max(1.0);
        let mut finished = 0.0;
        // The tables being made, in the order they started, and how far
        // each is.
        let mut running: Vec<(Material, f64)> = Vec::new();
        let queue = Mutex::new(Queue {
            tables: self.clone(),
            todo,
            running: 0,
            failed: false,
        });
        let changed = Condvar::new();
        let (sender, receiver) = crossbeam_channel::unbounded::<Event>();
        let workers = threads.max(1);
        let mut first_error = None;
        std::thread::scope(|scope| {
            for worker in 0..workers {
                let sender = sender.clone();
                let (queue, changed, priority) = (&queue, &changed, &priority);
                scope.spawn(move || {
                    if pace.low_priority {
                        lower_thread_priority();
                    }
                    loop {
                        let (material, tables) = match next_table(queue, changed, priority) {
                            Next::Make(material, tables) => (material, tables),
                            Next::Stop => return,
                            Next::Missing(names) => {
                                let _ = sender.send(Event::Failed(format!(
                                    "cannot generate {names}: smaller tables missing"
                                )));
                                return;
                            }
                        };
                        let started = std::time::Instant::now();
                        let solved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            tables.solve(&material, &mut |fraction| {
                                let _ = sender.send(Event::Progress(material.clone(), fraction));
                                pace.wait_turn(worker)
                            })
                        }))
                        .unwrap_or_else(|_| Err("a generator thread panicked".into()));
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        q.running -= 1;
                        let message = match solved {
                            Ok(table) => {
                                let slot = q.tables.insert_slot(table);
                                Event::Done(material, slot, started.elapsed().as_secs_f64())
                            }
                            Err(e) => {
                                q.failed = true;
                                Event::Failed(e)
                            }
                        };
                        drop(q);
                        changed.notify_all();
                        if sender.send(message).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(sender);
            // Reported here, on the caller's thread, as each table finishes.
            for message in receiver {
                match message {
                    Event::Progress(material, fraction) => {
                        match running.iter_mut().find(|(m, _)| *m == material) {
                            Some(entry) => entry.1 = f64::from(fraction),
                            None => running.push((material, f64::from(fraction))),
                        }
                    }
                    Event::Done(material, slot, seconds) => {
                        running.retain(|(m, _)| *m != material);
                        finished += size(&material);
                        if let Some(table) = slot.get(&material) {
                            done(table, seconds);
                        }
                        self.tables.insert(material.clone(), slot);
                        if running.is_empty() {
                            progress(&material, finished / total);
                        }
                    }
                    Event::Failed(e) => {
                        first_error.get_or_insert(e);
                    }
                }
                if let Some((first, _)) = running.first() {
                    let partly: f64 = running.iter().map(|(m, f)| size(m) * f).sum();
                    progress(first, ((finished + partly) / total).min(1.0));
                }
            }
        });
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// What a generating thread tells the caller's thread.
enum Event {
    /// How far the work on a table is (0 to 1).
    Progress(Material, f32),
    /// A table is made: its slot, and the seconds it took.
    Done(Material, Arc<Slot>, f64),
    Failed(String),
}

/// The tables still to make, shared by the generating threads.
struct Queue {
    /// The tables so far; each thread takes a copy (shared `Arc`s) to read.
    tables: Builtin,
    todo: Vec<Material>,
    running: usize,
    failed: bool,
}

/// What a generating thread does next.
enum Next {
    /// Make this table from these tables.
    Make(Material, Builtin),
    /// Nothing left for this thread: all done, or a table failed.
    Stop,
    /// The remaining tables (named) can never be made: a smaller table is
    /// neither here nor among them.
    Missing(String),
}

/// Each table's place in the order of work: its own size plus the largest
/// such figure among the tables (of `todo`) that need it. The table with the
/// largest figure heads the longest chain still to do.
fn critical_path(todo: &[Material]) -> HashMap<Material, usize> {
    fn weight(m: &Material, todo: &[Material], memo: &mut HashMap<Material, usize>) -> usize {
        if let Some(&w) = memo.get(m) {
            return w;
        }
        let after = todo
            .iter()
            .filter(|d| d.children().contains(m))
            .map(|d| weight(d, todo, memo))
            .max()
            .unwrap_or(0);
        let w = retro::Layout::new(m).size + after;
        memo.insert(m.clone(), w);
        w
    }
    let mut memo = HashMap::new();
    for m in todo {
        weight(m, todo, &mut memo);
    }
    memo
}

/// The next table a generating thread should make, with the tables to make
/// it from; waits while every remaining table needs one still being made.
fn next_table(
    queue: &Mutex<Queue>,
    changed: &Condvar,
    priority: &HashMap<Material, usize>,
) -> Next {
    let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if q.failed || q.todo.is_empty() {
            return Next::Stop;
        }
        let ready = q
            .todo
            .iter()
            .enumerate()
            .filter(|(_, m)| m.children().iter().all(|c| q.tables.contains(c)))
            // Ties go to the table named first.
            .max_by_key(|&(i, m)| (priority.get(m).copied().unwrap_or(0), std::cmp::Reverse(i)))
            .map(|(i, _)| i);
        if let Some(i) = ready {
            let material = q.todo.remove(i);
            q.running += 1;
            return Next::Make(material, q.tables.clone());
        }
        if q.running == 0 {
            // Nothing running will ever make the missing tables.
            let names: Vec<String> = q.todo.iter().map(ToString::to_string).collect();
            q.failed = true;
            q.todo.clear();
            drop(q);
            changed.notify_all();
            return Next::Missing(names.join(", "));
        }
        q = changed.wait(q).unwrap_or_else(|e| e.into_inner());
    }
}
