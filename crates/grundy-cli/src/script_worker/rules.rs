//! Script games as a family of the game model: [`ScriptRules`] is the `ComponentGame` of a
//! `script:PATH` game, answered by its [`ScriptProxy`] (so no script runs in this process),
//! and [`WorkerHost`] is the registry's [`ScriptHost`] that builds it.

use super::{ScriptOptions, ScriptProxy};
use grundy::error::GameError;
use grundy::registry::ScriptHost;
use grundy::ruleset::{ComponentGame, ComponentMove, MOVE_LIMIT, Ruleset, erase};
use grundy::script::ScriptPosition;
use grundy::value::Value;
use num_bigint::BigUint;
use std::sync::{Arc, Mutex};

/// Builds script games that run in worker processes, under the default limits.
pub struct WorkerHost;

impl ScriptHost for WorkerHost {
    fn build(&self, text: &str, path: &str) -> Result<Arc<dyn Ruleset>, GameError> {
        let proxy = ScriptProxy::spawn(path, ScriptOptions::default())
            .map_err(|error| GameError::BadGame { spec: text.to_owned(), reason: format!("{error:#}") })?;
        Ok(erase(ScriptRules { spec: text.to_owned(), proxy: Mutex::new(proxy) }))
    }
}

/// A script game, every question sent to its worker.
pub struct ScriptRules {
    spec: String,
    proxy: Mutex<ScriptProxy>,
}

impl ScriptRules {
    /// Runs `ask` on the proxy; a worker's failure becomes one line naming the game.
    fn ask<T>(&self, ask: impl FnOnce(&mut ScriptProxy) -> anyhow::Result<T>) -> Result<T, GameError> {
        // A panic while the lock was held left the proxy usable (it restarts a dead worker).
        let mut proxy = self.proxy.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ask(&mut proxy).map_err(|error| GameError::OutOfReach(format!("{error:#}")))
    }

    fn options_with_values(
        &self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Vec<(ComponentMove<ScriptPosition>, Value)>, GameError> {
        let options = self.ask(|proxy| proxy.options_with_values(position))?;
        if options.len() > limit {
            return Err(GameError::TooManyMoves { component: position.to_string(), game: self.spec.clone(), limit });
        }
        let from = self.format_component(position);
        Ok(options
            .into_iter()
            .map(|option| {
                let to = if option.texts.is_empty() { "0".to_owned() } else { option.texts.join(" + ") };
                (ComponentMove::new(option.parts, format!("{from} -> {to}")), option.value)
            })
            .collect())
    }
}

impl ComponentGame for ScriptRules {
    type Component = ScriptPosition;

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn component_noun(&self) -> &'static str {
        "position"
    }

    fn parse_component(&self, text: &str) -> Result<ScriptPosition, GameError> {
        let parsed = self.ask(|proxy| proxy.parse(&[text.to_owned()])).map_err(|error| {
            // The worker's message already says which position of which game: keep its reason.
            let message = error.to_string();
            let reason =
                message.strip_prefix(&format!("bad position `{text}` for {}: ", self.spec)).unwrap_or(&message);
            let reason = reason.strip_prefix(&format!("{}: ", self.spec)).unwrap_or(reason);
            GameError::BadComponent { game: self.spec.clone(), text: text.to_owned(), reason: reason.to_owned() }
        })?;
        parsed.into_iter().next().ok_or_else(|| GameError::BadComponent {
            game: self.spec.clone(),
            text: text.to_owned(),
            reason: "the script's `parse` gave no position".to_owned(),
        })
    }

    fn format_component(&self, position: &ScriptPosition) -> String {
        // The script's `show`; when it fails, the default form, which `parse` reads back.
        self.ask(|proxy| proxy.format(std::slice::from_ref(position)))
            .ok()
            .and_then(|texts| texts.into_iter().next())
            .unwrap_or_else(|| position.to_string())
    }

    fn options(
        &self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Vec<ComponentMove<ScriptPosition>>, GameError> {
        Ok(self.options_with_values(position, limit)?.into_iter().map(|(option, _)| option).collect())
    }

    fn value(&self, position: &ScriptPosition) -> Result<Value, GameError> {
        let values = self.ask(|proxy| proxy.values(std::slice::from_ref(position)))?;
        values.into_iter().next().ok_or_else(|| GameError::OutOfReach("worker protocol: no value".to_owned()))
    }

    // The worker reports each option's value with it: one request instead of one per option.
    fn moves_to_value(
        &self,
        position: &ScriptPosition,
        target: &BigUint,
    ) -> Result<Vec<ComponentMove<ScriptPosition>>, GameError> {
        Ok(self
            .options_with_values(position, MOVE_LIMIT)?
            .into_iter()
            .filter(|(_, value)| matches!(value, Value::Finite(value) if value == target))
            .map(|(option, _)| option)
            .collect())
    }
}
