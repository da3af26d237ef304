-- A follow-up's message (the agent's add_detail, the scheduler's rules) is neither the person's words
-- nor the agent's answer: it is kept in the chat history as a 'system' message.
alter table canvas_agent_chat drop constraint canvas_agent_chat_role_check;
alter table canvas_agent_chat add constraint canvas_agent_chat_role_check check (role in ('user', 'assistant', 'system'));
