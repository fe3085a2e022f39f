//! One HTTP request as the models see it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    Http,
    Https,
}

impl Scheme {
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Request {
    pub method: String,
    pub scheme: Scheme,
    /// Lowercase, without port.
    pub host: String,
    pub port: u16,
    /// The path as sent, without the query.
    pub path: String,
    /// Query parameters in order, undecoded.
    pub query: Vec<(String, String)>,
    /// Request headers in order (names as given; compared without ASCII case).
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RequestError {
    #[error("a request is written 'METHOD URL', e.g. 'GET https://example.com/path'")]
    Shape,
    #[error("the URL must start with http:// or https://")]
    Scheme,
    #[error("the URL has no host")]
    Host,
    #[error("the port {0:?} is not a number from 1 to 65535")]
    Port(String),
    #[error("a header is written 'Name: value'")]
    Header,
}

impl Request {
    /// Parses `METHOD URL` (`GET https://shop.example.com:8443/cart?x=1`).
    pub fn parse(line: &str) -> Result<Request, RequestError> {
        let (method, url) = line
            .trim()
            .split_once(char::is_whitespace)
            .ok_or(RequestError::Shape)?;
        let url = url.trim();
        if method.is_empty() || url.contains(char::is_whitespace) {
            return Err(RequestError::Shape);
        }
        let (scheme, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (Scheme::Https, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (Scheme::Http, rest)
        } else {
            return Err(RequestError::Scheme);
        };
        let (authority, target) = match rest.find(['/', '?']) {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        if authority.is_empty() {
            return Err(RequestError::Host);
        }
        let (host, port) = super::hostname::split_authority(authority);
        if host.is_empty() {
            return Err(RequestError::Host);
        }
        let port = match port {
            Some(digits) => match digits.parse::<u16>() {
                Ok(n) if n > 0 => n,
                _ => return Err(RequestError::Port(digits.to_string())),
            },
            None => scheme.default_port(),
        };
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p, q),
            None => (target, ""),
        };
        let path = if path.is_empty() { "/" } else { path };
        let query = query
            .split('&')
            .filter(|kv| !kv.is_empty())
            .map(|kv| match kv.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (kv.to_string(), String::new()),
            })
            .collect();
        Ok(Request {
            method: method.to_ascii_uppercase(),
            scheme,
            host: host.to_ascii_lowercase(),
            port,
            path: path.to_string(),
            query,
            headers: Vec::new(),
        })
    }

    /// Adds a header written `Name: value`.
    pub fn with_header_line(mut self, line: &str) -> Result<Request, RequestError> {
        let (name, value) = line.split_once(':').ok_or(RequestError::Header)?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(RequestError::Header);
        }
        self.headers
            .push((name.to_string(), value.trim().to_string()));
        Ok(self)
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Request {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// The `Host` header the proxy sees: a `Host` among the headers, else the host with the
    /// port unless it is the scheme's default.
    pub fn authority(&self) -> String {
        if let Some(host) = self.header("host") {
            return host;
        }
        if self.port == self.scheme.default_port() {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// The values of header `name`, joined by `,` as one value (RFC 9110 field lines).
    pub fn header(&self, name: &str) -> Option<String> {
        let values: Vec<&str> = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect();
        (!values.is_empty()).then(|| values.join(","))
    }

    /// The first value of query parameter `name` (names compared exactly).
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `?a=1&b` as sent, or nothing.
    pub fn query_string(&self) -> String {
        query_string(&self.query)
    }

    /// `scheme://host[:port]path`, the port left out when it is the scheme's default.
    pub fn url(scheme: &str, host: &str, port: Option<u16>, path: &str) -> String {
        let default = match scheme {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        };
        match port {
            Some(p) if Some(p) != default => format!("{scheme}://{host}:{p}{path}"),
            _ => format!("{scheme}://{host}{path}"),
        }
    }
}

/// `?a=1&b` for these parameters, or nothing (a parameter without a value has no `=`).
pub fn query_string(query: &[(String, String)]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in query.iter().enumerate() {
        out.push(if i == 0 { '?' } else { '&' });
        out.push_str(k);
        if !v.is_empty() {
            out.push('=');
            out.push_str(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_with_ports_queries_and_defaults() {
        let r = Request::parse("get https://Shop.Example.com:8443/cart?x=1&y").unwrap();
        assert_eq!(
            (r.method.as_str(), r.scheme, r.host.as_str(), r.port),
            ("GET", Scheme::Https, "shop.example.com", 8443)
        );
        assert_eq!(r.path, "/cart");
        assert_eq!(r.query_param("x"), Some("1"));
        assert_eq!(r.query_param("y"), Some(""));
        let r = Request::parse("POST http://example.com").unwrap();
        assert_eq!((r.port, r.path.as_str()), (80, "/"));
        assert_eq!(
            Request::parse("GET example.com/"),
            Err(RequestError::Scheme)
        );
        assert_eq!(Request::parse("GET"), Err(RequestError::Shape));
        assert_eq!(
            Request::parse("GET http://x:0/"),
            Err(RequestError::Port("0".into()))
        );
        assert_eq!(Request::parse("GET http:///a"), Err(RequestError::Host));
        let r = r
            .with_header_line("X-A: 1")
            .unwrap()
            .with_header("x-a", "2");
        assert_eq!(r.header("X-a").as_deref(), Some("1,2"));
    }
}
