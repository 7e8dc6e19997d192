//! The container files agree with each other and with the server: every node in
//! `docker/compose.yml` is an upstream of `docker/nginx.conf` and advertises that address,
//! nginx passes WebSocket upgrades and hashes on the table id, the image's health check asks
//! the server's `/health`, and `docker/build.sh` is what the Dockerfile runs. With nginx
//! installed, `nginx -t` also checks the proxy's syntax (upstream names made local).

use std::path::{Path, PathBuf};

fn read(name: &str) -> String {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docker")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn compose_nginx_and_dockerfile_agree() {
    let compose = read("compose.yml");
    let nginx = read("nginx.conf");
    let dockerfile = read("Dockerfile");
    assert!(dockerfile.contains("RUN ./docker/build.sh /stage"));
    assert!(dockerfile.contains("FROM debian:bookworm-slim"));
    assert!(dockerfile.contains("USER pref"));
    assert!(dockerfile.contains("HEALTHCHECK"));
    assert!(dockerfile.contains("http://127.0.0.1:8080/health"));
    assert!(compose.contains("dockerfile: docker/Dockerfile"));
    let nodes: Vec<&str> = compose
        .lines()
        .filter_map(|l| l.trim().strip_prefix("PREF_NODE_ADDR: "))
        .collect();
    assert_eq!(nodes, ["node1:8080", "node2:8080"]);
    for node in &nodes {
        assert!(
            nginx.contains(&format!("server {node} ")),
            "{node} is not an upstream"
        );
        let service = node.split(':').next().unwrap();
        assert!(compose.contains(&format!("\n  {service}:\n")));
    }
    assert_eq!(compose.matches("PREF_DATABASE_URL: postgres://").count(), 2);
    for needle in [
        "hash $table_key consistent",
        "proxy_set_header Upgrade $http_upgrade",
        "proxy_set_header Connection $connection_upgrade",
        "proxy_http_version 1.1",
    ] {
        assert!(nginx.contains(needle), "nginx.conf lacks {needle}");
    }
}

#[test]
fn nginx_accepts_the_proxy_config() {
    let Ok(out) = std::process::Command::new("nginx").arg("-v").output() else {
        eprintln!("skipped: nginx is not installed");
        return;
    };
    assert!(out.status.success());
    let dir = std::env::temp_dir().join(format!("pref-nginx-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    let conf = read("nginx.conf")
        .replace("node1:8080", "127.0.0.1:18081")
        .replace("node2:8080", "127.0.0.1:18082")
        .replace("listen 8080", "listen 127.0.0.1:18080");
    let file = dir.join("nginx.conf");
    std::fs::write(&file, conf).unwrap();
    let out = std::process::Command::new("nginx")
        .arg("-t")
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(&file)
        .arg("-g")
        .arg("error_log stderr; pid nginx.pid;")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
