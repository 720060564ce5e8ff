# crewbot: the app (`npm start`) and its workers (`npm run worker`) from one image.
# Build: docker build -t crewbot .   Run: see compose.yaml and docs/operating.md ("Containers").
# Node 24, a supported LTS (20 reached its end of life in April 2026); the project itself still
# runs and tests on Node 20 (package.json `engines`).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary fits: python3, make and g++ for node-gyp.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# `npm ci` builds dist/ through the prepare script.
RUN npm ci && npm prune --omit=dev

FROM node:24-bookworm-slim
# git for checkouts and pushes, bubblewrap for the agents' sandbox, slirp4netns and iproute2 for its
# egress-only network ("network on"; util-linux's unshare and nsenter come with the base image),
# ripgrep for grep, tini as PID 1 (it reaps the sandboxes' processes and passes SIGTERM on, so
# running jobs drain).
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap slirp4netns iproute2 ripgrep ca-certificates tini curl \
 && rm -rf /var/lib/apt/lists/*
# A non-root user owns the data volume; the agents' commands run as this user inside bubblewrap.
RUN useradd --create-home --uid 10001 crewbot \
 && mkdir -p /data && chown crewbot:crewbot /data
WORKDIR /app
COPY --from=build --chown=crewbot:crewbot /app/node_modules ./node_modules
COPY --from=build --chown=crewbot:crewbot /app/dist ./dist
COPY --chown=crewbot:crewbot package.json app.yml ./
COPY --chown=crewbot:crewbot agents ./agents
COPY --chown=crewbot:crewbot prompts ./prompts
COPY --chown=crewbot:crewbot bin ./bin
USER crewbot
# HOST: Probot binds localhost unless told otherwise, which a published port cannot reach.
ENV NODE_ENV=production CREWBOT_DATA_DIR=/data PORT=3000 HOST=0.0.0.0
VOLUME /data
EXPOSE 3000
# The app answers on PORT; a worker sets CREWBOT_WORKER_PORT and overrides this in compose.yaml.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${CREWBOT_WORKER_PORT:-${PORT}}/healthz" || exit 1
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
