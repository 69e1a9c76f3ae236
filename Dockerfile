# Builds the Rust binaries and the web app; one target per process of
# docker-compose.yml. (Tests never build images: there is no Docker engine in CI.)
FROM rust:1-bookworm AS rust-build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY protocol protocol
COPY hub hub
COPY storefront-proxy storefront-proxy
COPY loadtest loadtest
RUN cargo build --release -p hub -p storefront-proxy

FROM node:20-bookworm AS web-build
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web ./
RUN npm run build

FROM debian:bookworm-slim AS hub
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=rust-build /src/target/release/hub /usr/local/bin/hub
EXPOSE 8100
CMD ["hub"]

FROM debian:bookworm-slim AS storefront-proxy
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=rust-build /src/target/release/storefront-proxy /usr/local/bin/storefront-proxy
COPY --from=web-build /src/web/dist /srv/web
ENV WEB_DIST=/srv/web
EXPOSE 8000
CMD ["storefront-proxy"]
