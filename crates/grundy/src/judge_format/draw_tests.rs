//! The drawer's and referee's tests.

use super::*;
use crate::judge_format::builtin;

fn format(name: &str) -> JudgeFormat {
    JudgeFormat::parse(builtin(name).unwrap()).unwrap()
}

fn resolve(text: &str) -> Result<Arc<dyn Ruleset>, GameError> {
    crate::registry::parse_game(text)
}

fn referee(format: &JudgeFormat) -> Referee<'static> {
    Referee::new(format, &resolve, None, Limits::default(), Control::default())
}

#[test]
fn every_drawn_test_is_read_back_by_the_format() {
    for (name, _, _) in super::super::BUILTIN_FORMATS {
        let format = format(name);
        if format.no_drawing().is_some() {
            assert!(Drawer::new(&format, None).unwrap_err().0.contains("draw off"), "{name}");
            continue;
        }
        let drawer = Drawer::new(&format, None).unwrap();
        let mut referee = referee(&format);
        let tests = drawer.draw_tests(300, 7, &mut referee);
        assert!(tests.len() >= 250, "{name}: {}", tests.len());
        for chunk in tests.chunks(format.tests_per_file()) {
            let bindings: Vec<Bindings> = chunk.iter().map(|drawn| drawn.bindings.clone()).collect();
            let read = format.read(&format.write(&bindings)).unwrap_or_else(|error| panic!("{name}: {error}"));
            for (case, drawn) in read.iter().zip(chunk) {
                let expected = drawer.case(&drawn.bindings);
                assert_eq!((&case.game, &case.components), (&expected.game, &expected.components), "{name}");
            }
        }
    }
}

#[test]
fn p_positions_are_p_positions_and_large_wythoff_ones_are_drawn() {
    let format = format("poj-1067");
    let drawer = Drawer::new(&format, None).unwrap();
    let mut referee = referee(&format);
    let tests = drawer.draw_tests(400, 3, &mut referee);
    let p_positions: Vec<&Drawn> = tests.iter().filter(|drawn| drawn.kind == Kind::PPositions).collect();
    assert!(p_positions.len() >= 50);
    for drawn in &p_positions {
        assert_eq!(referee.truth(&drawer.case(&drawn.bindings)).unwrap().outcome, Outcome::P, "{drawn:?}");
    }
    // Wythoff P-positions with both numbers past 10^8, where 1.618 for φ is long wrong.
    let large = tests.iter().filter(|drawn| {
        drawn.bindings["a"][0].min(drawn.bindings["b"][0]) > 100_000_000
            && referee.truth(&drawer.case(&drawn.bindings)).unwrap().outcome == Outcome::P
    });
    assert!(large.count() >= 5);
}

#[test]
fn fibonacci_nim_p_positions_are_drawn_at_every_size() {
    // A fresh heap's winning move leaves `n,k`, which HDU 2516's format cannot write: the
    // P-positions come from the game (the Fibonacci numbers), far past 10^6 too.
    let format = format("hdu-2516");
    let drawer = Drawer::new(&format, None).unwrap();
    let mut referee = referee(&format);
    let tests = drawer.draw_tests(500, 5, &mut referee);
    let p_positions: Vec<&Drawn> = tests.iter().filter(|drawn| drawn.kind == Kind::PPositions).collect();
    assert!(p_positions.len() >= 20, "{}", p_positions.len());
    let mut fibonacci = vec![1u64, 2];
    while *fibonacci.last().unwrap() < 1 << 32 {
        fibonacci.push(fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2]);
    }
    for drawn in &p_positions {
        assert_eq!(referee.truth(&drawer.case(&drawn.bindings)).unwrap().outcome, Outcome::P, "{drawn:?}");
        assert!(fibonacci.contains(&drawn.bindings["n"][0]), "{drawn:?}");
    }
    let large = p_positions.iter().filter(|drawn| drawn.bindings["n"][0] > 1_000_000).count();
    assert!(large >= 5, "{large} P-positions past 10^6");
}

#[test]
fn parameters_are_drawn_and_distinct_lists_are_not_sorted() {
    let format = format("acwing-893");
    let drawer = Drawer::new(&format, None).unwrap();
    let tests = drawer.draw_tests(500, 11, &mut referee(&format));
    let sets: HashSet<&Vec<u64>> = tests.iter().map(|drawn| &drawn.bindings["S"]).collect();
    assert!(sets.len() > 100, "{}", sets.len());
    assert!(sets.iter().any(|set| set.windows(2).any(|pair| pair[0] > pair[1])));
    // The command line's GAME fixes S.
    let drawer = Drawer::new(&format, Some("sub:2,5")).unwrap();
    let tests = drawer.draw_tests(100, 11, &mut referee(&format));
    assert!(tests.iter().all(|drawn| drawn.bindings["S"] == [2, 5] && drawn.bindings["k"] == [2]));
}

#[test]
fn misere_all_ones_of_both_parities() {
    let format = format("hdu-1907");
    let drawer = Drawer::new(&format, None).unwrap();
    let mut referee = referee(&format);
    let tests = drawer.draw_tests(300, 5, &mut referee);
    let ones: Vec<&Drawn> = tests.iter().filter(|drawn| drawn.kind == Kind::AllOnes).collect();
    assert!(ones.iter().any(|drawn| drawn.bindings["n"][0] % 2 == 0));
    assert!(ones.iter().any(|drawn| drawn.bindings["n"][0] % 2 == 1));
    for drawn in tests.iter().filter(|drawn| drawn.kind == Kind::PPositions) {
        assert_eq!(referee.truth(&drawer.case(&drawn.bindings)).unwrap().outcome, Outcome::P);
    }
}

/// Shrinking by the first smaller test that still fails ends at a local minimum in every
/// number, even where halving jumps over it: the failure `n % 4 == 0` from n = 7812500
/// ends at n = 4 (halving alone stopped at 7812500, whose half is 2 mod 4).
#[test]
fn shrinking_reaches_a_local_minimum_in_every_number() {
    let format =
        JudgeFormat::parse("tests 1..10\nline n:1..1e9 m:1..1000\ngame bash:{m}\nposition {n}\nanswer first second")
            .unwrap();
    let drawer = Drawer::new(&format, None).unwrap();
    let fails = |bindings: &Bindings| bindings["n"][0].is_multiple_of(4);
    let mut best: Bindings = [("n".to_owned(), vec![7_812_500]), ("m".to_owned(), vec![3])].into_iter().collect();
    while let Some(smaller) = drawer.smaller(&best).into_iter().find(|candidate| fails(candidate)) {
        best = smaller;
    }
    assert_eq!((best["n"][0], best["m"][0]), (4, 1));
}

#[test]
fn smaller_tests_fit_and_are_smaller() {
    let format = format("acwing-893");
    let drawer = Drawer::new(&format, None).unwrap();
    let test = drawer.draw_tests(50, 2, &mut referee(&format)).pop().unwrap().bindings;
    let size = |bindings: &Bindings| bindings.values().flatten().map(|&number| u128::from(number)).sum::<u128>();
    for smaller in drawer.smaller(&test) {
        assert!(drawer.fits(&smaller));
        assert!(size(&smaller) < size(&test));
    }
}

#[test]
fn bounds_that_admit_no_test_are_refused() {
    let format = JudgeFormat::parse("line n:5..9\nline h[n]:1..3:distinct\nposition {h}\nanswer Yes No").unwrap();
    let error = Drawer::new(&format, None).unwrap_err().0;
    assert!(error.ends_with("numbers): n in 5..9, h[n] in 1..3 distinct"), "{error}");
}

#[test]
fn e_and_d_tests_are_drawn_with_an_even_count_of_heaps() {
    // Luogu P2148: N is even (`n:2..20000:even`), the heaps paired.
    let format = format("luogu-p2148");
    let drawer = Drawer::new(&format, None).unwrap();
    let mut referee = referee(&format);
    let tests = drawer.draw_tests(300, 11, &mut referee);
    assert!(tests.len() >= 250, "{}", tests.len());
    assert!(tests.iter().all(|drawn| drawn.bindings["n"][0] % 2 == 0 && drawn.bindings["s"].len() % 2 == 0));
    let p_positions = tests.iter().filter(|drawn| drawn.kind == Kind::PPositions).count();
    assert!(p_positions >= 30, "{p_positions}");
    for drawn in tests.iter().take(60) {
        for smaller in drawer.smaller(&drawn.bindings) {
            assert_eq!(smaller["n"][0] % 2, 0);
        }
    }
    // Odd and even numbers of every list kind, distinct ones included.
    let odd =
        JudgeFormat::parse("line n:1..9:odd\nline h[n]:0..40:even:distinct\nposition {h}\nanswer Yes No\n").unwrap();
    let drawer = Drawer::new(&odd, Some("nim")).unwrap();
    for drawn in drawer.draw_tests(200, 5, &mut referee_for(&odd)) {
        assert_eq!(drawn.bindings["n"][0] % 2, 1);
        assert!(drawn.bindings["h"].iter().all(|h| h % 2 == 0), "{drawn:?}");
    }
}

fn referee_for(format: &JudgeFormat) -> Referee<'static> {
    Referee::new(format, &resolve, Some("nim".to_owned()), Limits::default(), Control::default())
}

/// A format with a game per test (`game sub:2,3,{k}`) keeps each game's table against the
/// run's one budget; once they would not fit together, the referee forgets the earlier
/// games instead of refusing the next test (Codeforces 1194D's `sub:1,2,{k}` reached 20 GB
/// with a table per test kept).
#[test]
fn games_built_per_test_share_the_run_budget_and_are_forgotten_to_fit() {
    let format =
        JudgeFormat::parse("line n:0..1000000000 k:5..1000000\ngame sub:2,3,{k}\nposition {n}\nanswer Alice Bob\n")
            .unwrap();
    let drawer = Drawer::new(&format, None).unwrap();
    let no_files = |path: &str| Err(format!("no file `{path}` here"));
    let case = |k: u64| drawer.case(&Bindings::from([("n".to_owned(), vec![999_999_999]), ("k".to_owned(), vec![k])]));
    let answers = |control: &Control, takes: &[u64]| {
        let front =
            crate::registry::FrontEnd { control: control.clone(), ..crate::registry::FrontEnd::reading(&no_files) };
        let resolve = |text: &str| crate::registry::parse_game_in(text, &front);
        let mut referee = Referee::new(&format, &resolve, None, Limits::default(), control.clone());
        let answers: Vec<Result<Truth, GameError>> = takes.iter().map(|&k| referee.truth(&case(k))).collect();
        (answers, control.held_bytes())
    };
    let takes = [300_001, 300_002, 300_004, 300_005];
    let roomy = Control::default();
    let (one, held) = answers(&roomy, &takes[..1]);
    assert!(one[0].is_ok() && held > 100_000, "{one:?} {held}");
    let (expected, held_all) = answers(&Control::default(), &takes);
    assert!(held_all >= held * 3, "the tables kept when they fit: {held_all} {held}");
    let tight = Control::default().with_memory_limit(held * 8 / 5);
    let (tight_answers, held_tight) = answers(&tight, &takes);
    assert!(held_tight <= tight.memory_limit(), "{held_tight}");
    for ((k, tight), expected) in takes.iter().zip(&tight_answers).zip(&expected) {
        assert_eq!(tight.as_ref().unwrap(), expected.as_ref().unwrap(), "k = {k}");
    }
}
