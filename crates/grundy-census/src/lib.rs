//! The census database: one row per heap game in SQLite, as `docs/census.md` fixes it.
//!
//! The rows themselves ([`CensusRow`]), the games of a family and the SQL text of the contract
//! are game knowledge and live in the I/O-free library ([`grundy::census`]); this crate is the
//! one place that opens a database file and reads or writes it (the CLI's `grundy census`).
//! Each row is committed in a transaction of its own (WAL journal, `synchronous = FULL`), so a
//! run killed at any moment loses only the games in flight.
//!
//! ```
//! use grundy_census::CensusDb;
//! let folder = tempfile::tempdir().unwrap();
//! let path = folder.path().join("census.sqlite");
//! let mut db = CensusDb::open(&path).unwrap();
//! let row = grundy::census::census_row("octal:0.07", 200).unwrap();
//! assert!(!db.done("octal:0.07", 200).unwrap());
//! db.write(&row).unwrap();
//! assert!(db.done("octal:0.07", 200).unwrap());
//! let reader = CensusDb::open_reader(&path).unwrap();
//! assert_eq!(reader.rows().unwrap(), vec![row]);
//! ```

#![forbid(unsafe_code)]

use grundy::census::sql::{COLUMNS, SCHEMA, SCHEMA_VERSION};
use grundy::census::{self, CensusRow};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a writer waits for another writer's transaction before it calls the database busy.
const BUSY_WAIT: Duration = Duration::from_millis(census::sql::BUSY_TIMEOUT_MS);

/// What went wrong with a census database, each as one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum CensusDbError {
    /// Another program held the database past the busy timeout.
    #[error("database `{path}` is busy: another program held it for more than {seconds} s; run again when it is done")]
    Busy {
        /// The database, as given.
        path: String,
        /// The busy timeout, in seconds.
        seconds: u64,
    },
    /// The file is not an SQLite database.
    #[error("`{0}` is not an SQLite database")]
    NotADatabase(String),
    /// The file is an SQLite database of something else.
    #[error("`{0}` is an SQLite database but not a grundy census (no census and census_meta tables)")]
    NotACensus(String),
    /// A database of another schema version.
    #[error("census database `{path}` has schema version {found}; this grundy reads version {SCHEMA_VERSION}")]
    SchemaVersion {
        /// The database, as given.
        path: String,
        /// The version it has, or `(none)`.
        found: String,
    },
    /// A report asked for a database that does not exist.
    #[error("no census database `{0}`")]
    Missing(String),
    /// A report asked for a database with no tables yet.
    #[error("`{0}` has no census in it yet")]
    Empty(String),
    /// A number past SQLite's signed 64-bit integers.
    #[error("{0} is beyond what the database stores (2^63 - 1)")]
    TooLarge(u64),
    /// A stored row that is not a census row.
    #[error("bad row `{game}` in `{path}`: {reason}")]
    BadRow {
        /// The row's game.
        game: String,
        /// The database, as given.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Any other SQLite error: cannot open, read-only, disk full, ….
    #[error("{0}")]
    Sqlite(String),
}

/// One line naming the database for an SQLite error: busy, not a database, or other.
fn sqlite_error(path: &Path, error: rusqlite::Error) -> CensusDbError {
    let shown = path.display().to_string();
    match error.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            CensusDbError::Busy { path: shown, seconds: BUSY_WAIT.as_secs() }
        }
        Some(ErrorCode::NotADatabase) => CensusDbError::NotADatabase(shown),
        Some(ErrorCode::CannotOpen) => CensusDbError::Sqlite(format!("cannot open database `{shown}`: {error}")),
        Some(ErrorCode::ReadOnly) => CensusDbError::Sqlite(format!("database `{shown}` is read-only: {error}")),
        Some(ErrorCode::DiskFull) => CensusDbError::Sqlite(format!("no space left for database `{shown}`")),
        _ => CensusDbError::Sqlite(format!("database `{shown}`: {error}")),
    }
}

fn to_sql_integer(value: u64) -> Result<i64, CensusDbError> {
    i64::try_from(value).map_err(|_| CensusDbError::TooLarge(value))
}

/// An open census database.
#[derive(Debug)]
pub struct CensusDb {
    connection: Connection,
    path: PathBuf,
    /// Whether the connection reads the file as immutable (see [`CensusDb::open_reader`]).
    immutable: bool,
}

impl CensusDb {
    /// Opens (or creates) `path` for a census: WAL journal, full sync, the schema created in an
    /// empty database and checked in any other.
    pub fn open(path: &Path) -> Result<CensusDb, CensusDbError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(path, flags).map_err(|error| sqlite_error(path, error))?;
        let mut database = CensusDb { connection, path: path.to_owned(), immutable: false };
        database.setup(true).map_err(|error| sqlite_error(path, error))?;
        database.check_schema(true)?;
        Ok(database)
    }

    /// Opens an existing census database to read, without ever writing to it or beside it.
    ///
    /// A read-only SQLite connection to a WAL database still creates its `-wal` and `-shm`
    /// files when they are missing, owned by whoever reads, and leaves them behind; another
    /// user's report could then lock the census's owner out of their next run. They are
    /// missing only when no connection has the database open (every open connection of a WAL
    /// database keeps `-wal`), and then every committed row is in the main file: such a
    /// database is read as immutable, with no lock and no file created. A census that begins
    /// while it is read makes `-wal` before it changes anything, so each read checks for it
    /// afterwards and reads again through SQLite's locks when it appeared.
    pub fn open_reader(path: &Path) -> Result<CensusDb, CensusDbError> {
        if !path.exists() {
            return Err(CensusDbError::Missing(path.display().to_string()));
        }
        let immutable = in_wal_mode(path) && !wal_file(path).exists();
        let connection = if immutable { connect_immutable(path)? } else { connect_read_only(path)? };
        let mut database = CensusDb { connection, path: path.to_owned(), immutable };
        database.setup(false).map_err(|error| sqlite_error(path, error))?;
        database.check_schema(false)?;
        Ok(database)
    }

    /// `query` on the reader's connection; for an immutable reader, again on a locking
    /// read-only connection when a census began meanwhile (see [`CensusDb::open_reader`]).
    fn read<T>(&self, query: impl Fn(&Connection) -> Result<T, CensusDbError>) -> Result<T, CensusDbError> {
        let answer = query(&self.connection)?;
        if self.immutable && wal_file(&self.path).exists() {
            return query(&connect_read_only(&self.path)?);
        }
        Ok(answer)
    }

    fn sql(&self) -> impl Fn(rusqlite::Error) -> CensusDbError + '_ {
        |error| sqlite_error(&self.path, error)
    }

    fn setup(&mut self, write: bool) -> rusqlite::Result<()> {
        self.connection.busy_timeout(BUSY_WAIT)?;
        if write {
            // WAL: readers never block the writer, and a commit is one append; FULL: a
            // committed row survives even a power cut.
            let mode: String = self.connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(rusqlite::Error::InvalidQuery);
            }
            self.connection.pragma_update(None, "synchronous", "FULL")?;
        }
        Ok(())
    }

    /// Creates the tables in an empty database; refuses a database of something else or of
    /// another schema version.
    fn check_schema(&mut self, write: bool) -> Result<(), CensusDbError> {
        let path = self.path.clone();
        let sql = |error| sqlite_error(&path, error);
        let tables: Vec<String> = {
            let mut statement =
                self.connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").map_err(sql)?;
            statement.query_map([], |row| row.get(0)).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?
        };
        let shown = self.path.display().to_string();
        if tables.is_empty() {
            if !write {
                return Err(CensusDbError::Empty(shown));
            }
            let transaction = self.connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql)?;
            transaction.execute_batch(SCHEMA).map_err(sql)?;
            transaction.commit().map_err(sql)?;
            return Ok(());
        }
        if !tables.iter().any(|table| table == "census_meta") || !tables.iter().any(|table| table == "census") {
            return Err(CensusDbError::NotACensus(shown));
        }
        let version: Option<String> = self
            .connection
            .query_row("SELECT value FROM census_meta WHERE key = 'schema_version'", [], |row| row.get(0))
            .optional()
            .map_err(sql)?;
        if version.as_deref() != Some(SCHEMA_VERSION) {
            return Err(CensusDbError::SchemaVersion {
                path: shown,
                found: version.unwrap_or_else(|| "(none)".to_owned()),
            });
        }
        Ok(())
    }

    /// Whether `game` is done at bound `max_heap` (see [`CensusRow::done_at`]).
    pub fn done(&self, game: &str, max_heap: u64) -> Result<bool, CensusDbError> {
        let stored: Option<(i64, i64, i64)> = self.read(|connection| {
            connection
                .query_row("SELECT max_heap, proved, checked_to FROM census WHERE game = ?1", [game], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                })
                .optional()
                .map_err(self.sql())
        })?;
        Ok(stored.is_some_and(|(stored_max, proved, checked_to)| {
            census::done_at(stored_max.max(0) as u64, proved == 1, checked_to.max(0) as u64, max_heap)
        }))
    }

    /// Commits one row in a transaction of its own, with the contract's upsert (a row replaces
    /// the stored one only when that one does not already answer the new bound).
    pub fn write(&mut self, row: &CensusRow) -> Result<(), CensusDbError> {
        let path = self.path.clone();
        let sql = |error| sqlite_error(&path, error);
        let integer = |value: Option<u64>| value.map(to_sql_integer).transpose();
        let rare_values =
            row.rare_values.as_ref().map(|values| serde_json::to_string(values).expect("a list of integers is JSON"));
        let transaction = self.connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql)?;
        transaction
            .execute(
                &census::sql::upsert(),
                params![
                    row.game,
                    row.family,
                    to_sql_integer(row.max_heap)?,
                    integer(row.preperiod)?,
                    integer(row.period)?,
                    integer(row.saltus)?,
                    row.proved,
                    to_sql_integer(row.checked_to)?,
                    integer(row.observed_preperiod)?,
                    integer(row.observed_period)?,
                    integer(row.observed_saltus)?,
                    row.largest_value,
                    to_sql_integer(row.largest_value_heap)?,
                    row.rare_mask,
                    row.rare_heap_parity,
                    integer(row.rare_heaps)?,
                    integer(row.last_rare_heap)?,
                    rare_values,
                    row.seconds,
                    row.grundy_version,
                ],
            )
            .map_err(sql)?;
        transaction.commit().map_err(sql)
    }

    /// How many of `games` have a proved row, and how many an unresolved one.
    pub fn status_counts(&self, games: &[String]) -> Result<(u64, u64), CensusDbError> {
        self.read(|connection| {
            let mut statement =
                connection.prepare_cached("SELECT proved FROM census WHERE game = ?1").map_err(self.sql())?;
            let (mut proved, mut unresolved) = (0, 0);
            for game in games {
                match statement.query_row([game], |row| row.get::<_, i64>(0)).optional().map_err(self.sql())? {
                    Some(1) => proved += 1,
                    Some(_) => unresolved += 1,
                    None => {}
                }
            }
            Ok((proved, unresolved))
        })
    }

    /// Every row, sorted as the tables list games.
    pub fn rows(&self) -> Result<Vec<CensusRow>, CensusDbError> {
        let mut rows = self.read(|connection| {
            let mut statement =
                connection.prepare(&format!("SELECT {} FROM census", COLUMNS.join(", "))).map_err(self.sql())?;
            let mut rows = Vec::new();
            let mut query = statement.query([]).map_err(self.sql())?;
            while let Some(stored) = query.next().map_err(self.sql())? {
                let game: String = stored.get(0).map_err(self.sql())?;
                let row = read_row(stored).map_err(|reason| CensusDbError::BadRow {
                    game,
                    path: self.path.display().to_string(),
                    reason,
                })?;
                rows.push(row);
            }
            Ok(rows)
        })?;
        rows.sort_by_cached_key(|row| census::census_order(&row.game));
        Ok(rows)
    }
}

/// `FILE-wal`, the write-ahead log beside a database.
fn wal_file(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Whether the database file's header says WAL mode (its read and write versions, bytes 18
/// and 19, are 2); false for a file too short to say.
fn in_wal_mode(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(path).and_then(|mut file| file.read_exact(&mut header)).is_ok() && header[18..20] == [2, 2]
}

/// A read-only connection with SQLite's locks (it may create `-wal` and `-shm`).
fn connect_read_only(path: &Path) -> Result<Connection, CensusDbError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Connection::open_with_flags(path, flags).map_err(|error| sqlite_error(path, error))
}

/// A read-only connection that takes the file as immutable: no lock, no file created.
fn connect_immutable(path: &Path) -> Result<Connection, CensusDbError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    Connection::open_with_flags(file_uri(path), flags).map_err(|error| sqlite_error(path, error))
}

/// `file:PATH?immutable=1`, the path percent-encoded where a URI needs it.
fn file_uri(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut uri = String::from("file:");
    for &byte in path.as_os_str().as_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    uri
}

/// A stored row back as a [`CensusRow`], or what is wrong with it.
fn read_row(stored: &rusqlite::Row) -> Result<CensusRow, String> {
    let typed = |index: usize| move |error: rusqlite::Error| format!("{}: {error}", COLUMNS[index]);
    let unsigned = |index: usize| -> Result<u64, String> {
        let value: i64 = stored.get(index).map_err(typed(index))?;
        u64::try_from(value).map_err(|_| format!("{} is negative", COLUMNS[index]))
    };
    let maybe = |index: usize| -> Result<Option<u64>, String> {
        let value: Option<i64> = stored.get(index).map_err(typed(index))?;
        value.map(|value| u64::try_from(value).map_err(|_| format!("{} is negative", COLUMNS[index]))).transpose()
    };
    let rare_values: Option<String> = stored.get(17).map_err(typed(17))?;
    Ok(CensusRow {
        game: stored.get(0).map_err(typed(0))?,
        family: stored.get(1).map_err(typed(1))?,
        max_heap: unsigned(2)?,
        preperiod: maybe(3)?,
        period: maybe(4)?,
        saltus: maybe(5)?,
        proved: stored.get(6).map_err(typed(6))?,
        checked_to: unsigned(7)?,
        observed_preperiod: maybe(8)?,
        observed_period: maybe(9)?,
        observed_saltus: maybe(10)?,
        largest_value: stored.get(11).map_err(typed(11))?,
        largest_value_heap: unsigned(12)?,
        rare_mask: stored.get(13).map_err(typed(13))?,
        rare_heap_parity: stored.get(14).map_err(typed(14))?,
        rare_heaps: maybe(15)?,
        last_rare_heap: maybe(16)?,
        rare_values: rare_values
            .map(|text| serde_json::from_str(&text).map_err(|error| format!("rare_values: {error}")))
            .transpose()?,
        seconds: stored.get(18).map_err(typed(18))?,
        grundy_version: stored.get(19).map_err(typed(19))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: &str) -> CensusRow {
        census::census_row(game, 100).unwrap()
    }

    #[test]
    fn a_number_past_sqlite_integers_is_refused_and_nothing_is_written() {
        let folder = tempfile::tempdir().unwrap();
        let mut db = CensusDb::open(&folder.path().join("c.sqlite")).unwrap();
        let mut huge = row("octal:0.07");
        huge.max_heap = u64::MAX;
        let error = db.write(&huge).unwrap_err();
        assert_eq!(error.to_string(), format!("{} is beyond what the database stores (2^63 - 1)", u64::MAX));
        assert!(db.rows().unwrap().is_empty());
    }

    #[test]
    fn a_damaged_row_is_named_with_its_column() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.sqlite");
        let mut db = CensusDb::open(&path).unwrap();
        db.write(&row("octal:0.07")).unwrap();
        db.connection.execute("UPDATE census SET max_heap = -5", []).unwrap();
        let error = db.rows().unwrap_err().to_string();
        assert!(error.starts_with("bad row `octal:0.07` in `"), "{error}");
        assert!(error.ends_with("max_heap is negative"), "{error}");
    }

    #[test]
    fn a_smaller_rerun_keeps_the_longer_search() {
        let folder = tempfile::tempdir().unwrap();
        let mut db = CensusDb::open(&folder.path().join("c.sqlite")).unwrap();
        let long = census::census_row("octal:0.16", 3000).unwrap();
        db.write(&long).unwrap();
        db.write(&census::census_row("octal:0.16", 1000).unwrap()).unwrap();
        assert_eq!(db.rows().unwrap(), vec![long]);
        assert!(db.done("octal:0.16", 2000).unwrap() && !db.done("octal:0.16", 4000).unwrap());
        assert_eq!(db.status_counts(&["octal:0.16".to_owned(), "octal:0.4".to_owned()]).unwrap(), (0, 1));
    }

    /// The files of `folder`, each with its bytes.
    fn contents(folder: &Path) -> Vec<(std::ffi::OsString, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                (entry.file_name(), std::fs::read(entry.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn a_reader_of_a_finished_census_writes_nothing_and_sees_a_census_begin() {
        let folder = tempfile::tempdir().unwrap();
        // A name a URI must escape.
        let path = folder.path().join("c 100%?#.sqlite");
        let mut db = CensusDb::open(&path).unwrap();
        let first = row("octal:0.07");
        db.write(&first).unwrap();
        drop(db);
        let before = contents(folder.path());
        assert_eq!(before.len(), 1, "the writer leaves one file: {before:?}");
        let reader = CensusDb::open_reader(&path).unwrap();
        assert_eq!(reader.rows().unwrap(), vec![first]);
        assert!(reader.done("octal:0.07", 100).unwrap());
        assert_eq!(reader.status_counts(&["octal:0.07".to_owned(), "octal:0.6".to_owned()]).unwrap(), (0, 1));
        drop(reader);
        assert_eq!(contents(folder.path()), before);
        // A census that begins while the reader is open: its rows are read (through the locks).
        let reader = CensusDb::open_reader(&path).unwrap();
        let mut writer = CensusDb::open(&path).unwrap();
        writer.write(&row("octal:0.6")).unwrap();
        assert_eq!(reader.rows().unwrap().len(), 2);
        assert!(reader.done("octal:0.6", 100).unwrap());
    }
}
