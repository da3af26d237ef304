-- Issue 21: the images and videos people put on a room's board. An asset is named by the SHA-256 of
-- its bytes (lowercase hex) within its room: the same file put twice is one row, its bytes never
-- change under its id (so its URL may be cached for ever), and a board record of another room cannot
-- point at it. The content type is the one sniffed from the bytes when it was first put.
create table canvas_assets (
  room_id text not null,
  asset_id text not null check (asset_id ~ '^[0-9a-f]{64}$'),
  content_type text not null,
  size bigint not null,
  bytes bytea not null,
  created_at timestamptz not null default now(),
  primary key (room_id, asset_id)
);
