# Switchyard: the console and the server, built once, run as an unprivileged user.
# Build: docker build -t switchyard .   Run: docker run -p 3000:3000 -v switchyard-data:/data switchyard

# The Node.js major of .nvmrc. better-sqlite3 ships its prebuilt Node-API binaries, so no compiler is needed.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
ENV NODE_ENV=production PORT=3000 SQLITE_PATH=/data/one-api.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/contract ./contract
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/node_modules ./server/node_modules
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The node flags are those of server/package.json's serve script (docs/decisions.md, "Node flags").
CMD ["node", "--max-semi-space-size=32", "--no-concurrent-sparkplug", "--no-maglev-build-code-on-background", "--no-maglev-deopt-data-on-background", "server/dist/main.js"]
