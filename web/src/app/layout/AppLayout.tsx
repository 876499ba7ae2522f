import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { Footer } from './Footer';
import { Header } from './Header';
import { NoticeBanner } from './NoticeBanner';

export function AppLayout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Header />
      <NoticeBanner />
      <Container
        component="main"
        size="xl"
        w="100%"
        py="lg"
        px={{ base: 'sm', sm: 'md' }}
        style={{ flex: 1 }}
      >
        <Outlet />
      </Container>
      <Footer />
    </Box>
  );
}
