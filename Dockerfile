# syntax=docker/dockerfile:1
# Statecast demo image. Every step is scripts/release.sh, which CI runs too
# (scripts/image-check.sh builds this image's root file system with debootstrap and
# runs the demo in it), so CI proves them.
#   docker build -t statecast .
#   docker run --rm -p 8080:8080 statecast
#   docker run --rm -p 8080:8080 -e STATECAST_LOG_FORMAT=json statecast
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libwebsockets-dev libssl-dev libsqlite3-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer so that source changes reuse it.
COPY Package.swift ./
RUN swift package resolve
COPY . .
RUN scripts/release.sh build /app

FROM debian:bookworm-slim
# The runtime packages, then the staged app as /app and its user (uid and gid 10001),
# from the build stage without a layer of their own.
RUN --mount=type=bind,from=build,source=/app,target=/stage \
    /stage/release.sh install-runtime \
 && /stage/release.sh install-app /stage
USER statecast
EXPOSE 8080
# Checks STATECAST_PORT when it is set (docker run -e STATECAST_PORT=9000), else 8080.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s \
  CMD ["/app/release.sh", "health"]
CMD ["/app/release.sh", "run", "/app"]
