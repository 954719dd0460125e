use super::*;
use std::os::unix::fs::symlink;

const PKG: &str = "the package";

/// A package folder beside a host file (outside it) with known content.
fn setup() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let top = tempfile::tempdir().unwrap();
    let host = top.path().join("host-secret.txt");
    std::fs::write(&host, "HOST SECRET\n").unwrap();
    let pkg = top.path().join("pkg");
    std::fs::create_dir_all(pkg.join("data/secret/group1")).unwrap();
    std::fs::create_dir_all(pkg.join("data/secret/group2")).unwrap();
    std::fs::write(pkg.join("data/secret/group1/x.in"), "1 2\n").unwrap();
    (top, pkg, host)
}

/// Both ways of resolving: `openat2`, and the walk used where it is missing.
fn both(pkg: &Path, rel: &str) -> [Result<Vec<u8>, String>; 2] {
    let fast = read_beneath(pkg, Path::new(rel), 1 << 20, PKG).map_err(|e| e.to_string());
    let root = open_root(pkg).ok().unwrap();
    let slow = walk(&root, Path::new(rel), libc::O_RDONLY | libc::O_NONBLOCK)
        .map_err(|why| {
            ReadError {
                file: rel.into(),
                within: PKG,
                why,
            }
            .to_string()
        })
        .and_then(|fd| {
            let mut v = Vec::new();
            let kind = kind_of(fd.as_raw_fd()).unwrap();
            if kind != Kind::File {
                return Err(format!("{rel}: not a regular file ({kind:?})"));
            }
            File::from(fd).read_to_end(&mut v).unwrap();
            Ok(v)
        });
    [fast, slow]
}

#[test]
fn a_link_that_stays_inside_is_followed() {
    let (_top, pkg, _) = setup();
    symlink("../group1/x.in", pkg.join("data/secret/group2/x.in")).unwrap();
    symlink("secret/group2", pkg.join("data/g2")).unwrap();
    for rel in [
        "data/secret/group2/x.in",
        "data/g2/x.in",
        "data/g2/../group1/x.in",
    ] {
        for r in both(&pkg, rel) {
            assert_eq!(r.unwrap(), b"1 2\n", "{rel}");
        }
    }
}

#[test]
fn a_link_that_leads_outside_is_refused_by_name() {
    let (_top, pkg, host) = setup();
    symlink(&host, pkg.join("data/secret/abs.in")).unwrap();
    symlink("../../../host-secret.txt", pkg.join("data/secret/rel.in")).unwrap();
    symlink(
        "/proc/self/root/etc/hostname",
        pkg.join("data/secret/magic.in"),
    )
    .unwrap();
    symlink("..", pkg.join("data/up")).unwrap();
    for rel in [
        "data/secret/abs.in",
        "data/secret/rel.in",
        "data/secret/magic.in",
        "data/up/../host-secret.txt",
        "../host-secret.txt",
    ] {
        for r in both(&pkg, rel) {
            let e = r.unwrap_err();
            assert_eq!(
                e,
                format!("{rel}: a link that leads outside the package (links must stay inside it)")
            );
        }
    }
    let e = read_beneath(&pkg, &host, 100, PKG).unwrap_err();
    assert!(matches!(e.why, Why::Outside));
}

#[test]
fn a_fifo_a_device_a_socket_and_a_folder_are_not_read() {
    let (_top, pkg, _) = setup();
    let fifo = pkg.join("judgemessage.txt");
    let c = CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let _sock = std::os::unix::net::UnixListener::bind(pkg.join("sock")).unwrap();
    let shown = |rel: &str| {
        read_beneath(&pkg, Path::new(rel), 100, PKG)
            .unwrap_err()
            .to_string()
    };
    // Nobody writes the FIFO: this must not block.
    assert_eq!(
        shown("judgemessage.txt"),
        "judgemessage.txt: not a regular file (a FIFO)"
    );
    assert_eq!(shown("sock"), "sock: not a regular file (a socket)");
    assert_eq!(shown("data"), "data: not a regular file (a folder)");
    // /dev/zero can only be reached through a link, which leads outside.
    symlink("/dev/zero", pkg.join("zero")).unwrap();
    assert!(shown("zero").contains("leads outside"));
    // Through a folder that is itself the device's: the device is not a regular file.
    assert_eq!(
        read_beneath(Path::new("/dev"), Path::new("zero"), 100, PKG)
            .unwrap_err()
            .to_string(),
        "zero: not a regular file (a character device)"
    );
    for rel in ["judgemessage.txt", "sock", "data"] {
        assert!(both(&pkg, rel)[1].is_err(), "{rel}");
    }
}

#[test]
fn a_file_over_the_cap_and_a_missing_file_say_so() {
    let (_top, pkg, _) = setup();
    std::fs::write(pkg.join("big"), vec![b'x'; 3 << 20]).unwrap();
    let e = read_beneath(&pkg, Path::new("big"), 2 << 20, PKG).unwrap_err();
    assert_eq!(e.to_string(), "big: larger than the cap of 2 MiB");
    assert_eq!(
        read_beneath(&pkg, Path::new("big"), 3 << 20, PKG)
            .unwrap()
            .len(),
        3 << 20
    );
    let e = read_beneath(&pkg, Path::new("nope.txt"), 10, PKG).unwrap_err();
    assert!(e.is_missing());
    symlink("nowhere", pkg.join("dangling")).unwrap();
    assert!(read_beneath(&pkg, Path::new("dangling"), 10, PKG)
        .unwrap_err()
        .is_missing());
}

#[test]
fn kinds_are_told_without_opening_for_reading() {
    let (_top, pkg, host) = setup();
    symlink(host.parent().unwrap(), pkg.join("outdir")).unwrap();
    assert_eq!(
        kind_beneath(&pkg, Path::new("data/secret"), PKG).unwrap().1,
        Kind::Folder
    );
    assert_eq!(
        kind_beneath(&pkg, Path::new("data/secret/group1/x.in"), PKG)
            .unwrap()
            .1,
        Kind::File
    );
    let e = kind_beneath(&pkg, Path::new("outdir"), PKG).unwrap_err();
    assert!(matches!(e.why, Why::Outside));
}

#[test]
fn an_empty_root_is_the_current_folder() {
    // The working folder of a test process is the crate's root.
    let bytes = read_beneath(Path::new(""), Path::new("Cargo.toml"), 1 << 20, PKG).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("[package]"));
}

#[test]
fn odd_names_are_shown_escaped() {
    assert_eq!(shown(Path::new("data/secret/a.in")), "data/secret/a.in");
    assert_eq!(shown(Path::new("data/é.in")), "data/é.in");
    assert_eq!(shown(Path::new("a b.in")), "\"a b.in\"");
    assert_eq!(shown(Path::new("a\u{7}.in")), "\"a\\u{7}.in\"");
    let raw = Path::new(OsStr::from_bytes(b"\xff.in"));
    assert_eq!(shown(raw), "\"\\xFF.in\"");
}
