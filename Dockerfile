# Statecast demo image. Build and run steps are scripts/release.sh, which CI runs too.
#   docker build -t statecast .
#   docker run --rm -p 8080:8080 statecast
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libwebsockets-dev libssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer so that source changes reuse it.
COPY Package.swift ./
RUN swift package resolve
COPY . .
RUN scripts/release.sh build /app

FROM debian:bookworm-slim
COPY --from=build /app/release.sh /tmp/release.sh
RUN apt-get update \
 && apt-get install -y --no-install-recommends $(/tmp/release.sh runtime-packages) \
 && rm -rf /var/lib/apt/lists/* /tmp/release.sh \
 && useradd --system --create-home --uid 10001 statecast
COPY --from=build /app /app
RUN chown -R statecast /app/data
USER statecast
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s \
  CMD ["/app/release.sh", "health", "8080"]
CMD ["/app/release.sh", "run", "/app"]
