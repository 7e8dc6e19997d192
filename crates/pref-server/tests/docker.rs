//! The container files agree with each other and with the server: every node in
//! `docker/compose.yml` is an upstream of `docker/nginx.conf` and advertises that address,
//! nginx passes WebSocket upgrades and hashes on the table id, the image's health check asks
//! the server's `/health`, and `docker/build.sh` is what the Dockerfile runs. Both are safe
//! as shipped: nginx takes each route's bodies up to the server's own limit, names the
//! client in `X-Forwarded-For` to nodes that trust nginx's fixed address, and compose has
//! no default cluster secret. With nginx installed, `nginx -t` also checks the proxy's
//! syntax (upstream names made local).

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

/// The `client_max_body_size` of nginx's `location = path`, or of the server block.
fn body_size(nginx: &str, path: Option<&str>) -> usize {
    let block = match path {
        Some(p) => {
            let start = nginx
                .find(&format!("location = {p} {{"))
                .unwrap_or_else(|| panic!("nginx.conf has no location for {p}"));
            &nginx[start..start + nginx[start..].find('}').unwrap()]
        }
        None => &nginx[nginx.find("server {").unwrap()..],
    };
    let value = block
        .split("client_max_body_size ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no client_max_body_size for {path:?}"));
    let (digits, unit) = value.split_at(value.len() - 1);
    match unit {
        "k" => digits.parse::<usize>().unwrap() * 1024,
        "m" => digits.parse::<usize>().unwrap() * 1024 * 1024,
        _ => value.parse().unwrap(),
    }
}

#[test]
fn nginx_and_compose_are_safe_as_shipped() {
    let compose = read("compose.yml");
    let nginx = read("nginx.conf");
    let limits = pref_server::config::Limits::default();
    // Every route's bodies pass nginx up to the server's own limit for it.
    assert_eq!(body_size(&nginx, None), limits.max_body_bytes);
    assert_eq!(
        body_size(&nginx, Some("/api/keeper/import")),
        limits.max_record_bytes
    );
    assert_eq!(
        body_size(&nginx, Some("/api/analysis")),
        limits.analysis_max_record_bytes
    );
    // nginx names the client, replacing what the client said; the nodes trust nginx's
    // fixed address, and only it.
    assert!(nginx.contains("proxy_set_header X-Forwarded-For $remote_addr;"));
    assert!(
        nginx.contains("proxy_set_header Host $http_host;"),
        "the Host keeps its port"
    );
    let proxy_ip = compose
        .split("ipv4_address: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .expect("nginx has a fixed address")
        .trim();
    let trusted: Vec<&str> = compose
        .lines()
        .filter_map(|l| l.trim().strip_prefix("PREF_TRUSTED_PROXIES: "))
        .collect();
    assert_eq!(trusted, [proxy_ip, proxy_ip], "each node trusts nginx");
    let net: ipnet::IpNet = compose
        .split("- subnet: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(net.contains(&proxy_ip.parse::<std::net::IpAddr>().unwrap()));
    // No public default secret: compose refuses to start without one.
    let secrets: Vec<&str> = compose
        .lines()
        .filter_map(|l| l.trim().strip_prefix("PREF_CLUSTER_SECRET: "))
        .collect();
    assert_eq!(secrets.len(), 2);
    for s in secrets {
        assert!(s.starts_with("${PREF_CLUSTER_SECRET:?"), "{s}");
    }
    assert!(
        !compose.contains("change-this"),
        "a default secret is shipped"
    );
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
