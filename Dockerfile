# The contact-data service. Base: Debian bookworm with Node 20, Deno installed from npm (the
# same way CI and the README get it). Build: `docker build -t contact-svc .`
# Run:   `docker run -p 8787:8787 -v svc-data:/data contact-svc`
# (embedded PGlite + KV under /data; set DATABASE_URL / KV_PATH for external stores).
FROM node:20-bookworm-slim
RUN npm install -g deno@2.9.6 && deno --version
WORKDIR /app
COPY deno.json deno.lock ./
COPY . .
# Resolve and cache every npm dependency at build time, so start-up needs no network.
RUN deno install --entrypoint main.ts admin.ts
ENV DATA_DIR=/data \
    PORT=8787 \
    HOST=0.0.0.0
VOLUME /data
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["deno", "task", "start"]
