//! `kibitz completions SHELL` and `kibitz man`: a shell's completion script
//! and the manual page, both made from the command line's grammar (the
//! `clap::Command` of [`super::command_line::Cli`], handed in), so they
//! name every subcommand and flag there is.

use std::io::Write;

use clap::{Args, Command};
use clap_complete::Shell;

use super::CliError;

/// `kibitz completions`: which shell.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: Shell,
}

impl CompletionsArgs {
    pub fn run(&self, mut grammar: Command, out: &mut dyn Write) -> Result<(), CliError> {
        // Made whole first: the generator cannot report a failed write
        // (`kibitz completions bash | head`), `out` can.
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut grammar, "kibitz", &mut script);
        out.write_all(&script)?;
        Ok(())
    }
}

/// `kibitz man`: the program's page, or a subcommand's.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// A subcommand's own page instead, as the program's page lists them
    /// (`kibitz man analyze`, `kibitz man tb probe`).
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Vec<String>,
}

impl ManArgs {
    pub fn run(&self, grammar: Command, out: &mut dyn Write) -> Result<(), CliError> {
        // Built, so that each subcommand's page is named as the program's
        // page lists it (kibitz-analyze); `help` is no page.
        // Every page names the program's version, as the program's does.
        let source = format!("kibitz {}", grammar.get_version().unwrap_or_default());
        let mut page = grammar.disable_help_subcommand(true);
        page.build();
        for (index, name) in self.subcommand.iter().enumerate() {
            page = page.find_subcommand(name).cloned().ok_or_else(|| {
                let parent: Vec<&str> = std::iter::once("kibitz")
                    .chain(self.subcommand[..index].iter().map(String::as_str))
                    .collect();
                let parent = parent.join(" ");
                CliError::BadInput(format!(
                    "{parent} has no subcommand '{name}' (see {parent} --help)"
                ))
            })?;
        }
        clap_mangen::Man::new(page).source(source).render(out)?;
        Ok(())
    }
}
