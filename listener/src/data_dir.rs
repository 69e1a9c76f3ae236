//! The data directory both servers keep their secrets and data in (`DATA_DIR`): the
//! directory 0700, every file in it 0600, so that no other user of the machine reads the
//! hub secret (which mints guide tokens), the shop's SQLite file or the mail outbox.
//!
//! [`make_private`] runs before a server opens anything in the directory: it narrows the
//! process's umask to 0077 (SQLite's `-wal`/`-shm` files, mails, uploads and key files
//! are then created private, whoever creates them) and narrows what an earlier version
//! left readable. Only the owner's bits are kept; nothing is ever widened.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::Path;

/// The mode of the data directory and of every directory in it.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every file in the data directory.
pub const FILE_MODE: u32 = 0o600;
/// How deep [`make_private`] walks into the directory (`mail/`, `media/…/…`).
const MAX_DEPTH: usize = 6;

/// Creates `dir` (0700) when missing, sets the process umask to 0077, and takes the
/// group's and others' bits off everything already in it.
pub fn make_private(dir: &Path) -> std::io::Result<()> {
    private_umask();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)?;
    narrow(dir, 0)
}

/// Sets the process's file-creation mask to 0077 (new files 0600, directories 0700).
pub fn private_umask() {
    // SAFETY: umask only swaps the process's creation mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

fn narrow(path: &Path, depth: usize) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    let wanted = if meta.is_dir() { DIR_MODE } else { FILE_MODE };
    let mode = meta.permissions().mode() & 0o7777;
    if mode & !wanted != 0 {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & wanted))?;
    }
    if meta.is_dir() && depth < MAX_DEPTH {
        for entry in std::fs::read_dir(path)? {
            narrow(&entry?.path(), depth + 1)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn an_open_data_dir_of_an_earlier_version_is_made_private() {
        let root = tempfile_dir();
        let dir = root.join("data");
        std::fs::create_dir_all(dir.join("mail")).unwrap();
        std::fs::write(dir.join("hub-secret"), "s").unwrap();
        std::fs::write(dir.join("mail/1.eml"), "m").unwrap();
        for (path, m) in [
            (dir.clone(), 0o755),
            (dir.join("mail"), 0o775),
            (dir.join("hub-secret"), 0o644),
            (dir.join("mail/1.eml"), 0o666),
        ] {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(m)).unwrap();
        }
        make_private(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join("mail")), 0o700);
        assert_eq!(mode(&dir.join("hub-secret")), 0o600);
        assert_eq!(mode(&dir.join("mail/1.eml")), 0o600);
        // Created after: private through the umask.
        std::fs::write(dir.join("shop.sqlite-wal"), "w").unwrap();
        assert_eq!(mode(&dir.join("shop.sqlite-wal")), 0o600);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_missing_data_dir_is_created_private_and_nothing_is_widened() {
        let root = tempfile_dir();
        let dir = root.join("a/b");
        make_private(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        std::fs::write(dir.join("read-only"), "r").unwrap();
        std::fs::set_permissions(
            dir.join("read-only"),
            std::fs::Permissions::from_mode(0o400),
        )
        .unwrap();
        make_private(&dir).unwrap();
        assert_eq!(mode(&dir.join("read-only")), 0o400);
        std::fs::remove_dir_all(root).unwrap();
    }

    fn tempfile_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "listener-data-dir-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
