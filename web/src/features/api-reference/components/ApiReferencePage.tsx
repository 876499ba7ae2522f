import {
  Accordion,
  Anchor,
  Badge,
  Box,
  Code,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { OPENAPI_PATH, type OpenApiDocument, useOpenApiDocument } from '../api/openapi-document';
import { type ListedOperation, matchesFilter, operationsByTag, resolveSchema, wordingIn } from './operations';

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

/** A path that a narrow screen may break after its slashes only, never inside a segment. */
function BreakablePath({ path }: { path: string }) {
  const segments = path.split('/');
  return (
    <Text ff="monospace" size="sm" style={{ overflowWrap: 'normal', wordBreak: 'keep-all' }}>
      {segments.map((segment, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a path's segments are fixed, and may repeat
        <Fragment key={index}>
          {segment}
          {index < segments.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </Text>
  );
}

/** The API reference: the server's OpenAPI document, operations grouped by tag with their schemas. */
export function ApiReferencePage() {
  const { t, i18n } = useTranslation();
  const words = wordingIn(i18n.language === 'zh' ? 'zh' : 'en');
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
            {words.intro(data)}{' '}
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
                {words.tag(data, tag)}
              </Title>
              <Accordion variant="separated" chevronPosition="left">
                {items.map((item) => (
                  <Accordion.Item key={`${item.method} ${item.path}`} value={`${item.method} ${item.path}`}>
                    <Accordion.Control>
                      <Group gap="xs" wrap="nowrap" align="flex-start">
                        <Badge w={72} color={METHOD_COLOURS[item.method] ?? 'gray'} style={{ flexShrink: 0 }}>
                          {item.method}
                        </Badge>
                        {/* The summary follows the path, on the same line when both fit. */}
                        <Box
                          style={{
                            display: 'flex',
                            flexWrap: 'wrap',
                            alignItems: 'baseline',
                            columnGap: 12,
                            minWidth: 0,
                          }}
                        >
                          <BreakablePath path={item.path} />
                          <Text size="sm" c="dimmed" data-testid="api-summary">
                            {words.summary(item.operation)}
                          </Text>
                        </Box>
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
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
