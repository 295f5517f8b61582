//! End to end: the real binary in a pseudo-terminal, driven by keys as a
//! person would. It plays a move with the cursor keys and one typed in SAN,
//! sees the engine answer both, quits, and leaves the terminal as it found
//! it: main screen, cursor shown, mouse reporting off, cooked mode.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::sys::termios::LocalFlags;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 40;
const COLS: u16 = 120;

struct Session {
    parser: vt100::Parser,
    bytes: mpsc::Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    /// Everything the program wrote, as it wrote it.
    raw: Vec<u8>,
}

impl Session {
    fn pump(&mut self, wait: Duration) {
        if let Ok(chunk) = self.bytes.recv_timeout(wait) {
            self.parser.process(&chunk);
            self.raw.extend_from_slice(&chunk);
        }
        while let Ok(chunk) = self.bytes.try_recv() {
            self.parser.process(&chunk);
            self.raw.extend_from_slice(&chunk);
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Wait until the screen satisfies `ok`, or fail with the screen.
    fn wait_for(&mut self, what: &str, ok: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if ok(&self.screen()) {
                return;
            }
            self.pump(Duration::from_millis(50));
        }
        panic!(
            "timed out waiting for {what}; the screen:\n{}",
            self.screen()
        );
    }

    /// Wait for the program to end, reading what it still writes.
    fn wait_exit(&mut self, child: &mut dyn portable_pty::Child) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "kibitz did not exit");
            self.pump(Duration::from_millis(50));
        }
    }

    /// After the program has ended, read everything it wrote before: up
    /// to the end of the terminal's output, when the reading thread finds
    /// the other side closed (or 10 s, if something still holds it open).
    /// Waiting a fixed time instead lost the last writes (the terminal's
    /// restoring sequences) when a loaded machine was slow to hand them on.
    fn drain(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while let Ok(chunk) = self
            .bytes
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.parser.process(&chunk);
        }
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        // Give the app a moment between keys, as a person would.
        self.pump(Duration::from_millis(60));
    }
}

struct Pty {
    master: Box<dyn portable_pty::MasterPty + Send>,
}

/// The move list's line for move `n` with both halves played, if any.
fn full_move(screen: &str, n: u32) -> Option<String> {
    let prefix = format!("{n}. ");
    screen.lines().find_map(|line| {
        let at = line.find(&prefix)?;
        let rest: Vec<&str> = line[at + prefix.len()..].split_whitespace().collect();
        (rest.len() >= 2).then(|| format!("{} {}", rest[0], rest[1]))
    })
}

/// The binary on a fresh pseudo-terminal with its own home folder.
fn start(
    home: &common::TempHome,
    args: &[&str],
) -> (
    Session,
    Box<dyn portable_pty::Child + Send + Sync>,
    Box<dyn portable_pty::MasterPty + Send>,
) {
    start_with(home, args, &[])
}

/// [`start`] with more variables in its environment.
fn start_with(
    home: &common::TempHome,
    args: &[&str],
    env: &[(&str, &str)],
) -> (
    Session,
    Box<dyn portable_pty::Child + Send + Sync>,
    Box<dyn portable_pty::MasterPty + Send>,
) {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_kibitz"));
    command.args(args);
    for (key, value) in home.env() {
        command.env(key, value);
    }
    command.env_remove("KIBITZ_FRAME_LOG");
    command.env("TERM", "xterm-256color");
    for (key, value) in env {
        command.env(key, value);
    }
    let child = pty.slave.spawn_command(command).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let session = Session {
        parser: vt100::Parser::new(
            std::num::NonZero::new(ROWS).unwrap(),
            std::num::NonZero::new(COLS).unwrap(),
            0,
        ),
        bytes: rx,
        writer: pty.master.take_writer().unwrap(),
        raw: Vec::new(),
    };
    (session, child, pty.master)
}

#[test]
fn play_by_keys_and_typed_san_then_quit_with_the_terminal_restored() {
    let home = common::TempHome::new("pty-play");
    let (mut s, mut child, master) = start(&home, &[]);
    let pid = child.process_id().unwrap();
    let pty = Pty { master };
    s.wait_for("the new-game dialog", |screen| screen.contains("New game"));
    assert!(s.parser.screen().alternate_screen());
    let raw = pty.master.get_termios().unwrap();
    assert!(
        !raw.local_flags.contains(LocalFlags::ICANON),
        "raw mode while running"
    );

    // Default game: White against level 5. Start it.
    s.send("\r");
    s.wait_for("the game to start", |screen| {
        screen.contains("White to move")
    });

    // 1. e4 with the cursor: it starts on e2; Enter picks up, up twice, Enter drops.
    s.send("\r");
    s.send("\x1b[A");
    s.send("k");
    s.send(" ");
    s.wait_for("the engine's answer to 1. e4", |screen| {
        full_move(screen, 1).is_some_and(|m| m.starts_with("e4 "))
    });

    // 2. Nf3 typed in SAN on the command line.
    s.send(":");
    s.send("Nf3");
    s.send("\r");
    s.wait_for("the engine's answer to 2. Nf3", |screen| {
        full_move(screen, 2).is_some_and(|m| m.starts_with("Nf3 "))
    });

    // Backspace on an empty prompt keeps it open: the "f" after it is
    // typed there, not taken for the flip key; Esc leaves the prompt.
    s.send(":");
    s.send("\x7f");
    s.send("\x7f");
    s.send("f");
    s.wait_for("the prompt to keep the f", |screen| {
        screen.contains("move> f")
    });
    s.send("\x1b");
    s.wait_for("the key line back", |screen| screen.contains("u takeback"));
    let screen = s.screen();
    let row_of = |rank: char| screen.lines().position(|l| l.starts_with(rank));
    assert!(row_of('8') < row_of('1'), "not flipped:\n{screen}");

    // Quit asks first during a game.
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit?"));
    s.send("y");

    let status = s.wait_exit(&mut *child);
    s.drain();
    assert!(status.success(), "{status:?}");
    let screen = s.parser.screen();
    assert!(!screen.alternate_screen(), "left the alternate screen");
    assert!(!screen.hide_cursor(), "cursor shown again");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture off"
    );
    let restored = pty.master.get_termios().unwrap();
    assert!(
        restored
            .local_flags
            .contains(LocalFlags::ICANON | LocalFlags::ECHO)
    );

    // The game was autosaved after every move, in this board's own file,
    // and is offered next time.
    let autosave =
        std::fs::read_to_string(home.join(format!("data/kibitz/autosave-{pid}.json"))).unwrap();
    assert!(
        autosave.contains("\"e2e4\"") && autosave.contains("\"g1f3\""),
        "{autosave}"
    );
    let (mut s, mut child, _master) = start(&home, &[]);
    let next = child.process_id().unwrap();
    s.wait_for("the offer to resume", |screen| {
        screen.contains("Resume this unfinished game?")
    });
    s.send("y");
    s.wait_for("the game resumed", |screen| screen.contains("Game resumed"));
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit?"));
    s.send("y");
    assert!(s.wait_exit(&mut *child).success());
    // Its file became the new board's autosave: one file, the same game.
    let adopted =
        std::fs::read_to_string(home.join(format!("data/kibitz/autosave-{next}.json"))).unwrap();
    assert!(adopted.contains("\"g1f3\""), "{adopted}");
    assert!(
        !home
            .join(format!("data/kibitz/autosave-{pid}.json"))
            .exists()
    );
}

#[test]
fn analyse_a_pgn_game_walk_it_and_paste_a_fen() {
    let home = common::TempHome::new("pty-analyse");
    let pgn = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    let (mut s, mut child, _master) =
        start(&home, &["--pgn", pgn.to_str().unwrap(), "--game", "6"]);
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    // The engine analyses the start position: a line from move 1.
    s.wait_for("an engine line", |screen| {
        screen.contains("Engine · depth") && screen.contains(" 1.")
    });
    // Three moves forward: the analysis follows to Black's second move.
    s.send("\x1b[C");
    s.send("\x1b[C");
    s.send("\x1b[C");
    s.wait_for("ply 3", |screen| screen.contains("ply 3, Black to move"));
    s.wait_for("lines for the new position", |screen| {
        screen.contains("2...")
    });
    // A FEN pasted into the terminal (bracketed paste) opens a new board.
    s.send("\x1b[200~8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\x1b[201~");
    s.wait_for("the pasted position", |screen| {
        screen.contains("Analysis · ply 0, White to move") && !screen.contains("Kasparov")
    });
    s.send("q");
    s.wait_for("the quit question", |screen| {
        screen.contains("Quit kibitz?")
    });
    s.send("y");
    let status = s.wait_exit(&mut *child);
    assert!(status.success(), "{status:?}");
}

#[test]
fn term_hup_and_quit_signals_autosave_and_restore_the_terminal() {
    for (signal, number) in [("TERM", 15), ("HUP", 1), ("QUIT", 3)] {
        let home = common::TempHome::new(&format!("pty-signal-{signal}"));
        let (mut s, mut child, master) = start(&home, &[]);
        let pty = Pty { master };
        s.wait_for("the new-game dialog", |screen| screen.contains("New game"));
        s.send("\r");
        s.wait_for("the game to start", |screen| {
            screen.contains("White to move")
        });
        s.send(":");
        s.send("e4");
        s.send("\r");
        s.wait_for("the engine's answer to 1. e4", |screen| {
            full_move(screen, 1).is_some_and(|m| m.starts_with("e4 "))
        });
        // The moves' autosave goes: what is there after the signal was
        // written on the way out.
        let pid = child.process_id().unwrap();
        let autosave = home.join(format!("data/kibitz/autosave-{pid}.json"));
        std::fs::remove_file(&autosave).unwrap();
        assert!(s.parser.screen().alternate_screen());
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success());

        let status = s.wait_exit(&mut *child);
        s.drain();
        assert_eq!(status.exit_code(), 128 + number, "SIG{signal}: {status:?}");
        let screen = s.parser.screen();
        assert!(
            !screen.alternate_screen(),
            "SIG{signal}: left the alternate screen"
        );
        assert!(!screen.hide_cursor(), "SIG{signal}: cursor shown again");
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "SIG{signal}: mouse capture off"
        );
        let restored = pty.master.get_termios().unwrap();
        assert!(
            restored
                .local_flags
                .contains(LocalFlags::ICANON | LocalFlags::ECHO),
            "SIG{signal}: cooked mode again"
        );
        let saved = std::fs::read_to_string(&autosave)
            .unwrap_or_else(|e| panic!("SIG{signal}: no autosave: {e}"));
        assert!(saved.contains("\"e2e4\""), "SIG{signal}: {saved}");
    }
}

/// Every signal that would end the process can be caught, and each one
/// leaves the terminal as the board found it, with 128 + its number. SIGINT
/// arrives as a signal only from outside: in raw mode Ctrl-C is a key.
/// (Linux's numbers, 64 = SIGRTMAX; SIGTERM, SIGHUP and SIGQUIT have the
/// test above.)
#[cfg(target_os = "linux")]
#[test]
fn every_ending_signal_restores_the_terminal() {
    let signals = [
        ("INT", 2),
        ("USR1", 10),
        ("USR2", 12),
        ("ALRM", 14),
        ("STKFLT", 16),
        ("XCPU", 24),
        ("XFSZ", 25),
        ("VTALRM", 26),
        ("PROF", 27),
        ("POLL", 29),
        ("PWR", 30),
        ("RTMIN", 34),
        // By number: procps-ng's kill does not know the name RTMAX.
        ("64", 64),
    ];
    for (signal, number) in signals {
        let home = common::TempHome::new(&format!("pty-ending-{signal}"));
        let (mut s, mut child, master) = start(&home, &[]);
        let pty = Pty { master };
        s.wait_for("the new-game dialog", |screen| screen.contains("New game"));
        assert!(s.parser.screen().alternate_screen());
        let pid = child.process_id().unwrap();
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal}");

        let status = s.wait_exit(&mut *child);
        s.drain();
        assert_eq!(status.exit_code(), 128 + number, "SIG{signal}: {status:?}");
        let screen = s.parser.screen();
        assert!(
            !screen.alternate_screen(),
            "SIG{signal}: left the alternate screen"
        );
        assert!(!screen.hide_cursor(), "SIG{signal}: cursor shown again");
        let restored = pty.master.get_termios().unwrap();
        assert!(
            restored
                .local_flags
                .contains(LocalFlags::ICANON | LocalFlags::ECHO),
            "SIG{signal}: cooked mode again"
        );
    }
}

/// The header's "step N of M" in teach mode.
fn teach_step(screen: &str) -> Option<(usize, usize)> {
    let at = screen.find("step ")?;
    let mut words = screen[at + "step ".len()..].split_whitespace();
    let number = |word: Option<&str>| word?.replace(',', "").parse::<usize>().ok();
    let n = number(words.next())?;
    (words.next()? == "of").then_some(())?;
    Some((n, number(words.next())?))
}

#[test]
fn teach_a_fork_step_by_step_then_quit_with_the_terminal_restored() {
    let home = common::TempHome::new("pty-teach");
    let fork = "4k3/8/8/1q6/4N3/8/7P/4K3 w - - 0 1";
    let (mut s, mut child, master) = start(&home, &["teach", "--fen", fork, "--depth", "2"]);
    let pty = Pty { master };
    s.wait_for("the record", |screen| screen.contains("step 0 of"));
    assert!(s.parser.screen().alternate_screen());
    let (_, last) = teach_step(&s.screen()).unwrap();
    assert!(last > 5, "{}", s.screen());
    assert!(s.screen().contains("Path from the root"), "{}", s.screen());

    // Right three times: the step counter follows.
    for n in 1..=3 {
        s.send("\x1b[C");
        s.wait_for(&format!("step {n}"), |screen| {
            teach_step(screen) == Some((n, last))
        });
    }
    // Left: one back.
    s.send("\x1b[D");
    s.wait_for("step 2 again", |screen| {
        teach_step(screen) == Some((2, last))
    });
    // End: the last step, where the best move is found.
    s.send("\x1b[F");
    s.wait_for("the last step", |screen| {
        teach_step(screen) == Some((last, last))
    });
    assert!(s.screen().contains("Nd6+"), "{}", s.screen());

    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit"));
    s.send("y");
    let status = s.wait_exit(&mut *child);
    s.drain();
    assert!(status.success(), "{status:?}");
    let screen = s.parser.screen();
    assert!(!screen.alternate_screen(), "left the alternate screen");
    assert!(!screen.hide_cursor(), "cursor shown again");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture off"
    );
    let restored = pty.master.get_termios().unwrap();
    assert!(
        restored
            .local_flags
            .contains(LocalFlags::ICANON | LocalFlags::ECHO)
    );
}

#[test]
fn teach_takes_its_techniques_and_first_step_and_goto_jumps_to_a_line() {
    let home = common::TempHome::new("pty-teach-flags");
    let pawns = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1";
    let args = [
        "teach",
        "--fen",
        pawns,
        "--depth",
        "3",
        "--pvs",
        "--no-table",
        "--step",
        "30",
    ];
    let (mut s, mut child, _master) = start(&home, &args);
    s.wait_for("the record at step 30", |screen| {
        teach_step(screen).is_some_and(|(n, _)| n == 30)
    });
    let screen = s.screen();
    assert!(screen.contains("principal-variation search"), "{screen}");
    assert!(
        !screen.contains("table +") && screen.contains("3-transposition"),
        "{screen}"
    );
    // The tree view, and a jump to a line.
    s.send("v");
    s.wait_for("the tree", |screen| screen.contains("Search tree · node"));
    s.send(":goto Kd3 Kd5\r");
    s.wait_for("the line reached", |screen| {
        screen.contains("the search reaches Kd3 Kd5")
    });
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit"));
    s.send("y");
    assert!(s.wait_exit(&mut *child).success());
}

#[test]
fn threat_keep_line_and_play_on_with_the_real_engine() {
    let home = common::TempHome::new("pty-threat");
    // After 3. Qh5 Black is to move and White threatens Qxf7#.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";
    let (mut s, mut child, _master) = start(&home, &["--fen", fen, "--analyse"]);
    s.wait_for("an engine line", |screen| {
        screen.contains("Engine · depth") && screen.contains("3...")
    });
    // t: the threat, found by the engine in a second.
    s.send("t");
    s.wait_for("the threat", |screen| screen.contains("threat: 4.Qxf7#"));
    // The threat's search over (its word in the status line), the analysis
    // goes on; K keeps the engine's best line in the game.
    s.wait_for("the threat's end", |screen| {
        screen.contains("Threat: Qxf7#")
    });
    // The best line's row again: its number, its score, Black's move 3.
    s.wait_for("the analysis again", |screen| {
        screen.lines().any(|l| {
            (l.contains(" 1  -") || l.contains(" 1  +") || l.contains(" 1   0.00"))
                && l.contains(" 3...")
        })
    });
    s.send("K");
    s.wait_for("the line kept", |screen| {
        screen.contains("Kept engine line 1")
    });
    // A position from --fen with a line added, never saved to a file.
    assert!(s.screen().contains("not saved"), "{}", s.screen());
    // P: a game from here against the engine.
    s.send("P");
    s.wait_for("the new-game dialog", |screen| screen.contains("Play as"));
    s.send("\r");
    s.wait_for("the game", |screen| screen.contains("vs kibitz level"));
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit"));
    s.send("y");
    assert!(s.wait_exit(&mut *child).success());
}

#[test]
fn teach_refuses_bad_input_before_touching_the_terminal() {
    for args in [
        &["teach", "--depth", "9"][..],
        &["teach", "--fen", "garbage"],
        &["teach", "--moves", "e2e5"],
        &["teach", "--played", "e5"],
        &["teach", "--played", "e4", "--better", "e2e4"],
        &[
            "teach",
            "--fen",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        ],
    ] {
        let home = common::TempHome::new("pty-teach-refused");
        let (s, mut child, master) = start(&home, args);
        let mut raw = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            while let Ok(chunk) = s.bytes.recv_timeout(Duration::from_millis(50)) {
                raw.extend(chunk);
            }
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "{args:?}: kibitz did not exit");
        };
        while let Ok(chunk) = s.bytes.recv_timeout(Duration::from_millis(200)) {
            raw.extend(chunk);
        }
        assert_eq!(status.exit_code(), 2, "{args:?}");
        let text = String::from_utf8_lossy(&raw);
        assert!(text.contains("error: "), "{args:?}: {text:?}");
        // Nothing but the message: no alternate screen, no mouse capture,
        // no escape sequence at all.
        assert!(!text.contains('\x1b'), "{args:?}: {text:?}");
        assert_eq!(
            text.trim_end().lines().count(),
            1,
            "{args:?}: one line: {text:?}"
        );
        let termios = master.get_termios().unwrap();
        assert!(
            termios
                .local_flags
                .contains(LocalFlags::ICANON | LocalFlags::ECHO),
            "{args:?}: still cooked"
        );
    }
}

/// The study line `kibitz review --all` prints for a blunder opens the
/// lesson as the board's report does: about the move played, naming the
/// better one, at the step where the search tries the played move.
#[test]
fn a_review_study_line_opens_the_lesson_at_the_played_move() {
    let home = common::TempHome::new("pty-study-line");
    let pgn = common::testdata("pgn/review-three.pgn");
    let out = home
        .command()
        .args(["review", "--pgn", pgn.to_str().unwrap(), "--all"])
        .args(["--movetime", "50", "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report = String::from_utf8(out.stdout).unwrap();
    let line = report
        .lines()
        .find(|l| l.contains("study game 1 ply 6: Nf6 (blunder)"))
        .unwrap_or_else(|| panic!("{report}"));
    let command = &line[line.find("kibitz teach ").unwrap() + "kibitz teach ".len()..];
    // --fen 'FEN' then words.
    let (fen, rest) = command
        .strip_prefix("--fen '")
        .and_then(|c| c.split_once('\''))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(rest.contains("--played Nf6 --better "), "{line}");
    let mut args = vec!["teach", "--fen", fen];
    args.extend(rest.split_whitespace());
    let (mut s, mut child, _master) = start(&home, &args);
    s.wait_for("the lesson at the played move", |screen| {
        screen.contains("the search reaches Nf6")
    });
    let screen = s.screen();
    assert!(screen.contains("3... Nf6 (played)"), "{screen}");
    assert!(
        screen.contains("In the game Nf6 was played: the review"),
        "{screen}"
    );
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit"));
    s.send("y");
    assert!(s.wait_exit(&mut *child).success());
}

#[test]
fn map_typed_shows_its_legend_and_the_real_engine_fills_it() {
    let home = common::TempHome::new("pty-map");
    // A middlegame out of the book: the analysis searches at once.
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (mut s, mut child, _master) = start(&home, &["--analyse", "--fen", fen]);
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    s.send(":");
    s.send("map wn");
    s.send("\r");
    s.wait_for("the legend", |screen| {
        screen.contains("Map: white knight · touches")
    });
    // The engine's iterations teach the tables: the map fills as it reports.
    s.send(":");
    s.send("map all");
    s.send("\r");
    s.wait_for("the learned tables", |screen| {
        screen.contains("Map: all tables · touches") && !screen.contains("nothing learned")
    });
    s.send("q");
    s.wait_for("the quit question", |screen| {
        screen.contains("Quit kibitz?")
    });
    s.send("y");
    let status = s.wait_exit(&mut *child);
    assert!(status.success(), "{status:?}");
}

/// The overlay and `:map export` on a real terminal, with the tables the
/// real engine learns: the CSV written is the map the board shows.
#[test]
fn map_overlay_and_export_on_a_real_terminal() {
    let home = common::TempHome::new("pty-map-export");
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (mut s, mut child, _master) = start(&home, &["--analyse", "--fen", fen]);
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    s.send(":");
    s.send("map wn+bq");
    s.send("\r");
    s.wait_for("the overlay's legend", |screen| {
        screen.contains("Map: wn ∩ bq · touches") && screen.contains("shared")
    });
    let path = home.join("overlay.csv");
    s.send(":");
    s.send(&format!("map export {}", path.display()));
    s.send("\r");
    s.wait_for("the export's words", |screen| screen.contains("written to"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 65, "{text}");
    assert!(
        text.starts_with("square,value,band,table,view,scope,source,wn,bq\na1,"),
        "{text}"
    );
    s.send("q");
    s.wait_for("the quit question", |screen| {
        screen.contains("Quit kibitz?")
    });
    s.send("y");
    let status = s.wait_exit(&mut *child);
    assert!(status.success(), "{status:?}");
}

#[test]
fn map_game_history_learns_over_the_game_on_its_thread_and_follows_the_cursor() {
    let home = common::TempHome::new("pty-game-history");
    let pgn = common::testdata("pgn/molinari-bordais-1979.pgn");
    let (mut s, mut child, _master) = start(&home, &["--pgn", pgn.to_str().unwrap()]);
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    s.send(":");
    s.send("map game-history");
    s.send("\r");
    s.send(":");
    s.send("map wn");
    s.send("\r");
    // The walk runs on its own thread (ten searches to depth 5).
    s.wait_for("the tables learnt at ply 0", |screen| {
        screen.contains("Map: white knight") && screen.contains("game ply 0/10")
    });
    s.send("\x1b[C");
    s.send("\x1b[C");
    s.send("\x1b[C");
    s.wait_for("the map at ply 3", |screen| {
        screen.contains("ply 3, Black to move") && screen.contains("game ply 3/10")
    });
    quit(&mut s, &mut *child, "game-history");
}

/// A resize storm: 40 changes of the terminal's size between 179 x 71 and
/// 80 x 24, each signalled by SIGWINCH (the kernel sends it when the
/// pseudo-terminal's size changes), faster than the board redraws. The
/// program must live through it; after it the terminal is back at 120 x 40
/// and the board is drawn there.
fn resize_storm(s: &mut Session, pty: &Pty, child: &mut dyn portable_pty::Child, what: &str) {
    for i in 0..40 {
        let (cols, rows) = if i % 2 == 0 { (179, 71) } else { (80, 24) };
        pty.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        s.pump(Duration::from_millis(5 + 5 * (i % 3)));
        if let Some(status) = child.try_wait().unwrap() {
            s.drain();
            panic!(
                "{what}: kibitz ended at resize {i} with {status:?}; the screen:\n{}",
                s.screen()
            );
        }
    }
    pty.master
        .resize(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    s.parser.set_size(
        std::num::NonZero::new(ROWS).unwrap(),
        std::num::NonZero::new(COLS).unwrap(),
    );
    s.pump(Duration::from_millis(200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "{what}: kibitz ended after the storm"
    );
}

/// Quit (answering the question) and expect a clean exit.
///
/// A key that reaches crossterm 0.29 in the same wake-up as a SIGWINCH
/// stays unread until the next byte arrives: its event source returns the
/// resize and the terminal's edge-triggered readiness is spent. So if the
/// question does not come, an unbound key (F12) follows the `q`, as a
/// person would press another key.
fn quit(s: &mut Session, child: &mut dyn portable_pty::Child, what: &str) {
    s.send("q");
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut nudge = Instant::now() + Duration::from_secs(3);
    while !s.screen().contains("Quit") {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "{what}: kibitz ended before the quit question with {status:?}:\n{}",
                s.screen()
            );
        }
        assert!(
            Instant::now() < deadline,
            "{what}: no quit question, alive:\n{}",
            s.screen()
        );
        if Instant::now() > nudge {
            s.send("\x1b[24~");
            nudge = Instant::now() + Duration::from_secs(3);
        }
        s.pump(Duration::from_millis(50));
    }
    s.send("y");
    let status = s.wait_exit(child);
    assert!(status.success(), "{what}: {status:?}");
}

#[test]
fn resize_storms_while_the_engine_thinks_end_without_a_panic() {
    // A game, the engine thinking about its reply.
    let home = common::TempHome::new("pty-storm-play");
    let (mut s, mut child, master) = start(&home, &[]);
    let pty = Pty { master };
    s.wait_for("the new-game dialog", |screen| screen.contains("New game"));
    s.send("\r");
    s.wait_for("the game to start", |screen| {
        screen.contains("White to move")
    });
    s.send(":");
    s.send("e4");
    s.send("\r");
    resize_storm(&mut s, &pty, &mut *child, "play");
    quit(&mut s, &mut *child, "play");

    // The analysis board: the engine analyses all the time.
    let home = common::TempHome::new("pty-storm-analyse");
    let (mut s, mut child, master) = start(&home, &["--analyse"]);
    let pty = Pty { master };
    s.wait_for("an engine line", |screen| screen.contains("Engine · depth"));
    resize_storm(&mut s, &pty, &mut *child, "analysis");
    quit(&mut s, &mut *child, "analysis");

    // Teach mode, at its last step.
    let home = common::TempHome::new("pty-storm-teach");
    let fork = "4k3/8/8/1q6/4N3/8/7P/4K3 w - - 0 1";
    let (mut s, mut child, master) = start(&home, &["teach", "--fen", fork, "--depth", "2"]);
    let pty = Pty { master };
    s.wait_for("the record", |screen| screen.contains("step 0 of"));
    s.send("\x1b[F");
    resize_storm(&mut s, &pty, &mut *child, "teach");
    quit(&mut s, &mut *child, "teach");
}

/// The threads of `pid` named `name` (Linux: /proc; elsewhere none).
fn threads_named(pid: u32, name: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|t| {
            std::fs::read_to_string(t.path().join("comm")).is_ok_and(|comm| comm.trim() == name)
        })
        .count()
}

/// A game that comes near the endgame tables makes the missing ones in the
/// background: the status line says so, and `:tables off` stops it at once
/// (the generating thread is gone within a second).
#[test]
fn background_table_making_shows_and_tables_off_stops_it() {
    let home = common::TempHome::new("pty-tables");
    // King and queen against king and pawn: its tables (and the queen
    // ending a promotion leads to) take seconds to make, so the thread is
    // still at work when it is looked for.
    let (mut s, mut child, _master) = start(&home, &["--fen", "8/8/8/4k3/8/8/p7/KQ6 w - - 0 1"]);
    let pid = child.process_id().unwrap();
    s.wait_for("the new-game dialog", |screen| screen.contains("New game"));
    s.send("\r");
    s.wait_for("table making in the status line", |screen| {
        screen.contains(":tables off stops")
    });
    if cfg!(target_os = "linux") {
        // The thread's name as /proc shows it (15 bytes); its generating
        // threads inherit it.
        // The status line may say so a moment before the thread starts.
        let shown = Instant::now();
        while threads_named(pid, "kibitz-tablebas") == 0 {
            assert!(
                shown.elapsed() < Duration::from_secs(5),
                "no generating thread 5 s after the status line said so"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    s.send(":");
    s.send("tables off");
    s.send("\r");
    let asked = Instant::now();
    s.wait_for("the stop said", |screen| {
        screen.contains("Endgame table making stopped for this session")
    });
    if cfg!(target_os = "linux") {
        while threads_named(pid, "kibitz-tablebas") > 0 {
            assert!(
                asked.elapsed() < Duration::from_secs(1),
                "still generating a second after :tables off"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    assert!(!s.screen().contains(":tables off stops"), "{}", s.screen());
    // Nothing half-made was left in the cache.
    let dir = home.join("cache/kibitz/tablebases");
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(name.ends_with(".ktb"), "a file that is no table: {name}");
    }
    quit(&mut s, &mut *child, "tables");
}

/// CPU time a process has used so far (user and system), from /proc.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's name (which may hold spaces): state
    // is the first, utime the 12th, stime the 13th.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..]
        .split_whitespace()
        .collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

/// Issue 51: the analysis board's engine stops at `analysis_limit` (here
/// 2 s), says so, and then leaves the CPU alone; under `NO_COLOR` the move
/// list's current move is in brackets, after a resize too.
#[test]
fn the_analysis_stops_at_its_limit_and_then_rests() {
    let home = common::TempHome::new("pty-limit");
    let config = home.join("limit.toml");
    std::fs::write(&config, "analysis_limit = \"2 s\"\n").unwrap();
    let pgn = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    let args = [
        "--config",
        config.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--game",
        "6",
    ];
    let (mut s, mut child, _master) = start_with(&home, &args, &[("NO_COLOR", "1")]);
    let pid = child.process_id().unwrap();
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    // "stopped at depth N · a goes on", or, where a loaded machine gave
    // the engine no finished line in 2 s, "stopped at its limit · ...".
    s.wait_for("the analysis to stop", |screen| {
        screen.contains("· a goes on")
    });
    // Half a second for what the start still does beside the engine (the
    // tables are looked for in the background), then 2 s of rest.
    let settle = Instant::now() + Duration::from_millis(500);
    while Instant::now() < settle {
        s.pump(Duration::from_millis(100));
    }
    let before = cpu_time(pid);
    let rest = Instant::now() + Duration::from_secs(2);
    while Instant::now() < rest {
        s.pump(Duration::from_millis(100));
    }
    let used = cpu_time(pid) - before;
    assert!(
        used < Duration::from_millis(300),
        "{used:?} of CPU in 2 s after the stop"
    );
    // NO_COLOR: the current move by its brackets.
    s.send("\x1b[C");
    s.wait_for("[e4] marked", |screen| screen.contains("[e4]"));
    // (The brackets after a resize are checked on the test terminal,
    // `evening_analysis::no_color_marks_the_current_move_by_shape`: here a
    // key sent after the pseudo-terminal's resize was at times delivered
    // only when the next bytes came, which tmux never showed.)
    quit(&mut s, &mut *child, "after the stopped analysis");
}

/// Under `NO_COLOR` the terminal library writes a change of colour as an
/// empty attribute sequence, `ESC[;m`, which resets bold and underline too:
/// the analysis move list's weight was random. Now no colour is drawn, no
/// such sequence is written, and every main-line move is bold on the real
/// terminal while the engine keeps redrawing its lines.
#[test]
fn no_color_keeps_the_main_line_bold_on_a_real_terminal() {
    let home = common::TempHome::new("pty-no-color");
    let pgn = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    let (mut s, mut child, _master) = start_with(
        &home,
        &["--pgn", pgn.to_str().unwrap(), "--game", "6"],
        &[("NO_COLOR", "1")],
    );
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    for _ in 0..14 {
        s.send("\x1b[C");
    }
    s.wait_for("ply 14", |screen| screen.contains("ply 14, White to move"));
    s.wait_for("an engine line", |screen| screen.contains("Engine · depth"));
    // The engine redraws its lines for a while.
    let until = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < until {
        s.pump(Duration::from_millis(50));
    }
    let resets = s.raw.windows(4).filter(|w| w == b"\x1b[;m").count();
    assert_eq!(resets, 0, "colour changes written as resets");
    let screen = s.parser.screen();
    let rows: Vec<String> = screen.rows(0, COLS).collect();
    // In the move list (below the engine's lines).
    let list = rows
        .iter()
        .position(|r| r.contains("Moves ─"))
        .unwrap_or_else(|| panic!("a move list in {}", s.screen()));
    for san in ["Bd3", "O-O", "Bf4", "Re1", "Kc8"] {
        let (row, col) = rows
            .iter()
            .enumerate()
            .skip(list + 1)
            .find_map(|(r, text)| {
                text.find(&format!(" {san} "))
                    .map(|at| (r, text[..at].chars().count() + 1))
            })
            .unwrap_or_else(|| panic!("{san} in {}", s.screen()));
        for c in 0..san.len() {
            let cell = screen.cell(row as u16, (col + c) as u16).unwrap();
            assert!(
                cell.bold(),
                "{san} not bold at {row},{col}:\n{}",
                s.screen()
            );
        }
    }
    quit(&mut s, &mut *child, "the analysis board");
}

/// `kibitz learn` opens the course screen where the learner stopped; a page
/// turned is kept, and the next `kibitz learn` opens on it.
#[test]
fn learn_opens_the_course_where_the_learner_stopped() {
    let home = common::TempHome::new("pty-learn");
    let (mut s, mut child, _master) = start(&home, &["learn"]);
    s.wait_for("the course screen", |screen| {
        screen.contains("Course · chapter 1 of 9: Game trees and minimax")
    });
    assert!(s.screen().contains("Page 1 of 4"), "{}", s.screen());
    s.send("]");
    s.send("\x1b[C");
    s.wait_for("chapter 2, page 2", |screen| {
        screen.contains("chapter 2 of 9: Alpha-beta") && screen.contains("Page 2 of 4")
    });
    s.send("\x1b");
    s.wait_for("teach mode", |screen| !screen.contains("Course ·"));
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit"));
    s.send("y");
    assert!(s.wait_exit(&mut *child).success());
    let (mut s, mut child, _master) = start(&home, &["learn"]);
    s.wait_for("the course where it was left", |screen| {
        screen.contains("chapter 2 of 9: Alpha-beta") && screen.contains("Page 2 of 4")
    });
    // Esc alone, seen, before the next key: Esc and q read together are
    // Alt-q.
    s.send("\x1b");
    s.wait_for("teach mode", |screen| !screen.contains("Course ·"));
    s.send("q");
    s.wait_for("the quit question", |screen| screen.contains("Quit"));
    s.send("y");
    assert!(s.wait_exit(&mut *child).success());
}

/// Three games (1.e4 twice, 1.d4 once) in a database in `home`.
fn three_game_database(home: &common::TempHome) -> std::path::PathBuf {
    let pgn = home.join("games.pgn");
    std::fs::write(
        &pgn,
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n",
    )
    .unwrap();
    let db_path = home.join("mine.sqlite");
    let mut db = kibitz::db::Database::open_or_create(&db_path).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    db.import(
        &pgn,
        &kibitz::db::ImportOptions::default(),
        &stop,
        &mut |_| {},
    )
    .unwrap();
    db.rebuild_summary(true).unwrap();
    db_path
}

#[test]
fn the_explorer_of_a_database_given_with_db_plays_a_move_with_enter() {
    let home = common::TempHome::new("pty-explorer");
    let db_path = three_game_database(&home);
    let (mut s, mut child, _master) =
        start(&home, &["--analyse", "--db", db_path.to_str().unwrap()]);
    s.wait_for("the analysis board", |screen| {
        screen.contains("Analysis · ply 0")
    });
    s.send("x");
    s.wait_for("the explorer's answer", |screen| {
        screen.contains("Explorer · 3 games") && screen.contains("▶e4")
    });
    // Enter plays the most played move; the panel follows to its position.
    s.send("\r");
    s.wait_for("e4 played and explored", |screen| {
        screen.contains("ply 1, Black to move")
            && screen.contains("Explorer · 2 games")
            && (screen.contains("▶e5") || screen.contains("▶c5"))
    });
    quit(&mut s, &mut *child, "the explorer");
}

#[test]
fn db_games_open_lists_the_games_on_the_board_and_enter_opens_one() {
    let home = common::TempHome::new("pty-db-games");
    let db_path = three_game_database(&home);
    let db = db_path.to_str().unwrap();
    let (mut s, mut child, _master) = start(
        &home,
        &["db", "games", "--db", db, "--player", "Ann", "--open"],
    );
    s.wait_for("the game list", |screen| {
        screen.contains("mine.sqlite · 1 game") && screen.contains("Ann")
    });
    s.send("\r");
    s.wait_for("the game on the analysis board", |screen| {
        screen.contains("Analysis · ply 0") && screen.contains("Game 1 of the database mine.sqlite")
    });
    // The explorer reads the database the games came from.
    s.send("x");
    s.wait_for("the explorer", |screen| {
        screen.contains("Explorer · 3 games")
    });
    quit(&mut s, &mut *child, "db games --open");
}
