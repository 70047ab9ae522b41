//! Turns to compute: `--jobs` requests compute at once, the others wait in a queue that is fair
//! between clients and short. A freed turn goes to the waiting request whose IP address
//! computes the fewest requests, then, among requests of addresses computing as many, whose
//! client within its address computes the fewest (the page's token, one per tab, else the
//! connection: [`Who`]; so that local users, all on 127.0.0.1, are told apart, while many
//! tokens or connections from one address still share one address's share), the earliest first
//! among equals; so one client's many slow requests do not starve another's; and none waits
//! longer than about one request's time limit (a turn frees at least that often) before it is
//! told the server is busy, so nobody waits minutes. How many wait is bounded by the
//! connections (`connections`).

use super::connections::Who;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// The turns of one server.
pub struct Turns {
    state: Mutex<State>,
}

struct State {
    /// Turns nobody holds (only while no request waits).
    free: usize,
    /// The turns each address holds.
    running: HashMap<IpAddr, usize>,
    /// The turns each client holds.
    running_within: HashMap<Who, usize>,
    waiting: Vec<Waiter>,
    /// Orders the waiters by arrival.
    next_ticket: u64,
}

struct Waiter {
    client: Who,
    ticket: u64,
    wake: oneshot::Sender<Turn>,
}

/// One turn to compute, given back when dropped.
pub struct Turn {
    /// `None` once given back (or never handed out).
    turns: Option<Arc<Turns>>,
    client: Who,
}

/// No turn came in time.
#[derive(Debug, PartialEq, Eq)]
pub struct Busy;

impl Turns {
    pub fn new(jobs: usize) -> Arc<Turns> {
        let state = State {
            free: jobs,
            running: HashMap::new(),
            running_within: HashMap::new(),
            waiting: Vec::new(),
            next_ticket: 0,
        };
        Arc::new(Turns { state: Mutex::new(state) })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A turn for a request of `client`, waiting at most `wait`.
    pub async fn take(self: &Arc<Self>, client: Who, wait: Duration) -> Result<Turn, Busy> {
        let receiver = {
            let mut state = self.state();
            // Waiters that gave up are forgotten here, and skipped when a turn is handed out.
            state.waiting.retain(|waiter| !waiter.wake.is_closed());
            if state.free > 0 {
                state.free -= 1;
                state.count(&client);
                return Ok(Turn { turns: Some(self.clone()), client });
            }
            let (wake, receiver) = oneshot::channel();
            let ticket = state.next_ticket;
            state.next_ticket += 1;
            state.waiting.push(Waiter { client, ticket, wake });
            receiver
        };
        match tokio::time::timeout(wait, receiver).await {
            Ok(Ok(turn)) => Ok(turn),
            _ => Err(Busy),
        }
    }

    /// Gives a turn of `client` back: to the fairest waiter, else to the free ones.
    fn give_back(self: &Arc<Self>, client: &Who) {
        let next = {
            let mut state = self.state();
            state.uncount(client);
            state.waiting.retain(|waiter| !waiter.wake.is_closed());
            let fairest = state
                .waiting
                .iter()
                .enumerate()
                .min_by_key(|(_, waiter)| {
                    let address = state.running.get(&waiter.client.address).copied().unwrap_or(0);
                    let within = state.running_within.get(&waiter.client).copied().unwrap_or(0);
                    (address, within, waiter.ticket)
                })
                .map(|(index, _)| index);
            match fairest {
                Some(index) => {
                    let waiter = state.waiting.remove(index);
                    state.count(&waiter.client);
                    Some(waiter)
                }
                None => {
                    state.free += 1;
                    None
                }
            }
        };
        // Sent with the lock released: a waiter that gave up meanwhile hands the turn back
        // through `Turn::drop`, which takes the lock again.
        if let Some(waiter) = next {
            let _ = waiter.wake.send(Turn { turns: Some(self.clone()), client: waiter.client });
        }
    }
}

impl State {
    /// One more turn held by `client`.
    fn count(&mut self, client: &Who) {
        *self.running.entry(client.address).or_default() += 1;
        *self.running_within.entry(client.clone()).or_default() += 1;
    }

    /// One turn fewer held by `client`.
    fn uncount(&mut self, client: &Who) {
        if let Some(count) = self.running.get_mut(&client.address) {
            *count -= 1;
            if *count == 0 {
                self.running.remove(&client.address);
            }
        }
        if let Some(count) = self.running_within.get_mut(client) {
            *count -= 1;
            if *count == 0 {
                self.running_within.remove(client);
            }
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(turns) = self.turns.take() {
            turns.give_back(&self.client);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::serve::connections::Within;

    fn address(last: u8) -> Who {
        Who { address: IpAddr::from([127, 0, 0, last]), within: Within::Connection(0) }
    }

    /// A tab of the page on this machine (127.0.0.1), by its token.
    fn tab(token: &str) -> Who {
        Who { address: IpAddr::from([127, 0, 0, 1]), within: Within::Token(token.to_owned()) }
    }

    /// Lets the spawned requests run until `count` of them wait.
    async fn until_waiting(turns: &Turns, count: usize) {
        for _ in 0..1000 {
            if turns.state().waiting.len() == count {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!("{count} requests should be waiting");
    }

    fn request(turns: &Arc<Turns>, client: Who, wait: Duration) -> tokio::task::JoinHandle<Result<Turn, Busy>> {
        let turns = turns.clone();
        tokio::spawn(async move { turns.take(client, wait).await })
    }

    /// Two users of one machine (one address): a freed turn goes to the tab computing least,
    /// though it came last; and another address computing nothing comes before both.
    #[tokio::test(flavor = "current_thread")]
    async fn local_users_are_told_apart_by_their_tokens_and_addresses_come_first() {
        let turns = Turns::new(2);
        let wait = Duration::from_millis(300);
        let held =
            [turns.take(tab("a"), Duration::ZERO).await.unwrap(), turns.take(tab("a"), Duration::ZERO).await.unwrap()];
        let busy_waiting = request(&turns, tab("a"), wait);
        until_waiting(&turns, 1).await;
        let quiet_waiting = request(&turns, tab("b"), wait);
        until_waiting(&turns, 2).await;
        let [one, two] = held;
        drop(one);
        // Same address, but tab b computes nothing: the turn is b's.
        let quiet_turn = quiet_waiting.await.unwrap().unwrap();
        let other_address = request(&turns, address(2), wait);
        until_waiting(&turns, 2).await;
        drop(two);
        // 127.0.0.1 holds a turn (tab b), 127.0.0.2 none: the address computing least first.
        let _other_turn = other_address.await.unwrap().unwrap();
        drop(quiet_turn);
        let _busy_turn = busy_waiting.await.unwrap().unwrap();
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_freed_turn_goes_to_the_client_computing_least() {
        let turns = Turns::new(2);
        let (busy, quiet) = (address(2), address(1));
        let wait = Duration::from_millis(300);
        let held = [
            turns.take(busy.clone(), Duration::ZERO).await.unwrap(),
            turns.take(busy.clone(), Duration::ZERO).await.unwrap(),
        ];
        let first_waiting = request(&turns, busy.clone(), wait);
        until_waiting(&turns, 1).await;
        let second_waiting = request(&turns, busy.clone(), wait);
        until_waiting(&turns, 2).await;
        let quiet_waiting = request(&turns, quiet, wait);
        until_waiting(&turns, 3).await;
        let [one, two] = held;
        drop(one);
        // The quiet client computes nothing: the turn is its, though it came last.
        let _quiet_turn = quiet_waiting.await.unwrap().unwrap();
        drop(two);
        let _first_turn = first_waiting.await.unwrap().unwrap();
        // Nobody gives a turn back in time: the wait ends, the server is busy.
        assert_eq!(second_waiting.await.unwrap().err(), Some(Busy));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn turns_come_back_when_dropped_or_not_taken() {
        let turns = Turns::new(1);
        for _ in 0..3 {
            let turn = turns.take(address(1), Duration::ZERO).await.unwrap();
            drop(turn);
        }
        let held = turns.take(address(1), Duration::ZERO).await.unwrap();
        // A waiter that gives up is skipped: the turn given back is free again.
        assert_eq!(turns.take(address(2), Duration::from_millis(10)).await.err(), Some(Busy));
        drop(held);
        assert_eq!(turns.state().free, 1);
        assert!(turns.state().running.is_empty() && turns.state().waiting.is_empty());
    }
}
