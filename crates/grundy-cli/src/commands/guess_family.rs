//! `grundy guess TEMPLATE --over NAME=A..B […] [--json] [--emit python|cpp]`: a whole family.
//!
//! `{NAME}` in the game text is each value of `NAME` (an expression of the names in braces:
//! `sub:{a},{a+d}`). In a `script:` game the script's source is a template too: `{NAME}` there
//! (exactly, a name in braces) is replaced by the value, and each instance runs from its own
//! copy of the script, written to a temporary folder.

use crate::games::resolve;
use crate::output::{Stop, print, print_json};
use grundy::control::Control;
use grundy::error::GameError;
use grundy::guess::emit::Language;
use grundy::guess::family::{FamilyAnswer, guess_family};
use grundy::guess::family_emit::emit_family;
use grundy::guess::template::{ParameterRange, Template, check_ranges};
use grundy::ruleset::Ruleset;
use std::sync::Arc;

/// Runs the family guess for `game` over the `--over` ranges.
pub fn run(
    game: &str,
    over: &[String],
    to: Option<u64>,
    emit: Option<&str>,
    json: bool,
    control: &Control,
) -> anyhow::Result<()> {
    let parameters: Vec<ParameterRange> =
        over.iter().map(|text| ParameterRange::parse(text)).collect::<Result<_, _>>()?;
    check_ranges(&parameters)?;
    let names: Vec<String> = parameters.iter().map(|parameter| parameter.name.clone()).collect();
    let template = Template::parse(game, &names)?;
    let script = Script::of(&template, &names)?;
    let mut used = template.uses();
    if let Some(script) = &script {
        for (flag, in_script) in used.iter_mut().zip(script.source.uses()) {
            *flag |= in_script;
        }
    }
    if let Some(unused) = names.iter().zip(&used).find(|(_, used)| !**used).map(|(name, _)| name) {
        anyhow::bail!(
            "--over {unused}=… is used nowhere: write {{{unused}}} in the game text{}",
            if script.is_some() { " or in the script" } else { "" }
        );
    }
    let folder = match &script {
        Some(_) => Some(tempfile::Builder::new().prefix("grundy-family-").tempdir()?),
        None => None,
    };
    let mut build = |point: &[u64]| -> Result<(String, Arc<dyn Ruleset>), GameError> {
        let text = template.fill(point)?;
        let shown = match &script {
            None => text.clone(),
            Some(_) => format!(
                "{text} ({})",
                names.iter().zip(point).map(|(name, value)| format!("{name} = {value}")).collect::<Vec<_>>().join(", ")
            ),
        };
        let game = match (&script, &folder) {
            (Some(script), Some(folder)) => {
                let source = script.source.fill(point)?;
                let values: Vec<String> = point.iter().map(u64::to_string).collect();
                let path = folder.path().join(format!("{}-{}.star", script.stem, values.join("-")));
                std::fs::write(&path, source).map_err(|error| GameError::BadGame {
                    spec: text.clone(),
                    reason: format!("cannot write the script's copy {}: {error}", path.display()),
                })?;
                resolve(&format!("script:{}", path.display()), control)
            }
            _ => resolve(&text, control),
        };
        let game = game.map_err(|error| match error.downcast::<GameError>() {
            Ok(GameError::BadGame { reason, .. }) => GameError::BadGame { spec: shown.clone(), reason },
            Ok(error) => error,
            Err(error) => GameError::Unsupported(format!("{shown}: {error}")),
        })?;
        Ok((shown, game))
    };
    let family = guess_family(&template, &parameters, &mut build, to, control)?;
    if let Some(language) = emit {
        let language = Language::parse(language).expect("clap checked the language");
        return match emit_family(&family, &template, language) {
            Ok(code) => print(&code),
            Err(reason) => Err(Stop::NotFound(reason).into()),
        };
    }
    if json {
        return print_json(&FamilyAnswer::of(&family));
    }
    print(&family.explain())
}

/// A `script:PATH` family: the script's source as a template.
struct Script {
    source: Template,
    /// The file's name without `.star`, for the copies' names.
    stem: String,
}

impl Script {
    fn of(template: &Template, names: &[String]) -> anyhow::Result<Option<Script>> {
        let Some(path) = template.text.strip_prefix("script:") else { return Ok(None) };
        if path.contains('{') {
            anyhow::bail!(
                "bad game `{}`: the script's path may not hold a placeholder; write {{NAME}} inside the script",
                template.text
            );
        }
        let source = crate::input::read_script_file(path).map_err(|reason| anyhow::anyhow!("{reason}"))?;
        let stem = std::path::Path::new(path)
            .file_stem()
            .map(|stem| stem.to_string_lossy().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
            .unwrap_or_default();
        Ok(Some(Script { source: Template::parse_names_only(&source, names), stem }))
    }
}
