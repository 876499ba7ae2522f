import { Accordion, Anchor, Badge, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { OPENAPI_PATH, type OpenApiDocument, useOpenApiDocument } from '../api/openapi-document';
import { type ListedOperation, matchesFilter, operationsByTag, resolveSchema } from './operations';

const METHOD_COLOURS: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', DELETE: 'red' };

function OperationDetail({ document, item }: { document: OpenApiDocument; item: ListedOperation }) {
  const { t } = useTranslation();
  const parameters = item.operation.parameters ?? [];
  const body = Object.entries(item.operation.requestBody?.content ?? {})[0];
  return (
    <Stack gap="xs">
      <Text size="sm">
        {t('apiReference.access')}: <Code>{item.operation['x-access'] ?? 'public'}</Code>
      </Text>
      {parameters.length > 0 && (
        <Text size="sm">
          {t('apiReference.parameters')}:{' '}
          {parameters.map((parameter) => (
            <Code key={`${parameter.in}:${parameter.name}`} mr={4}>
              {parameter.name} ({parameter.in})
            </Code>
          ))}
        </Text>
      )}
      {body && (
        <>
          <Text size="sm">
            {t('apiReference.body')}: <Code>{body[0]}</Code>
          </Text>
          <Code block style={{ maxHeight: 360, overflow: 'auto' }}>
            {JSON.stringify(resolveSchema(document, body[1].schema), null, 2)}
          </Code>
        </>
      )}
    </Stack>
  );
}

/** The API reference: the server's OpenAPI document, operations grouped by tag with their schemas. */
export function ApiReferencePage() {
  const { t } = useTranslation();
  const document = useOpenApiDocument();
  const [filter, setFilter] = useState('');
  if (document.isLoading) return <PageLoading page={t('pageNames.apiReference')} />;
  if (!document.data) {
    return <EmptyPanel title={t('apiReference.failed')} text={t('apiReference.failedText')} />;
  }
  const data = document.data;
  const groups = operationsByTag(data)
    .map(([tag, items]) => [tag, items.filter((item) => matchesFilter(item, filter))] as const)
    .filter(([, items]) => items.length > 0);
  return (
    <>
      <PageHeader title={t('apiReference.title')} />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Group justify="space-between" align="flex-end" mb="md">
          <Text size="sm" c="dimmed" maw={640}>
            {data.info.description}{' '}
            <Anchor href={OPENAPI_PATH} target="_blank" rel="noreferrer">
              {t('apiReference.download')}
            </Anchor>
          </Text>
          <TextInput
            aria-label={t('apiReference.filter')}
            placeholder={t('apiReference.filter')}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
        </Group>
        <Stack gap="lg">
          {groups.map(([tag, items]) => (
            <div key={tag} data-testid="api-tag">
              <Title order={3} fz="h4" mb="xs">
                {tag}
              </Title>
              <Accordion variant="separated" chevronPosition="left">
                {items.map((item) => (
                  <Accordion.Item key={`${item.method} ${item.path}`} value={`${item.method} ${item.path}`}>
                    <Accordion.Control>
                      <Group gap="xs" wrap="nowrap">
                        <Badge w={72} color={METHOD_COLOURS[item.method] ?? 'gray'} style={{ flexShrink: 0 }}>
                          {item.method}
                        </Badge>
                        <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {item.path}
                        </Text>
                        <Text size="sm" c="dimmed" visibleFrom="sm" truncate="end">
                          {item.operation.summary}
                        </Text>
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
                      <Text size="sm" mb="xs" hiddenFrom="sm">
                        {item.operation.summary}
                      </Text>
                      <OperationDetail document={data} item={item} />
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
            </div>
          ))}
        </Stack>
      </Paper>
    </>
  );
}
